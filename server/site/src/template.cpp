// The tiny template language: see template.hpp.
#include "template.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace senet::site {

namespace {

struct Tag {
    std::size_t begin = 0, end = 0;  // [begin, end) covers the whole tag
    char kind = 0;                   // 0 value, '{' raw, '_' catalog, '#', '^', '/', '>'
    std::string_view name;
};

/// The next tag at or after `from`; begin == npos when there is none.
Tag nextTag(std::string_view t, std::size_t from) {
    Tag tag;
    const std::size_t open = t.find("{{", from);
    if (open == std::string_view::npos) { tag.begin = std::string_view::npos; return tag; }
    tag.begin = open;
    if (open + 2 < t.size() && t[open + 2] == '{') {
        const std::size_t close = t.find("}}}", open);
        if (close == std::string_view::npos) throw std::runtime_error("unclosed {{{ tag");
        tag.kind = '{';
        tag.name = t.substr(open + 3, close - open - 3);
        tag.end = close + 3;
        return tag;
    }
    const std::size_t close = t.find("}}", open);
    if (close == std::string_view::npos) throw std::runtime_error("unclosed {{ tag");
    std::string_view inner = t.substr(open + 2, close - open - 2);
    if (!inner.empty() && (inner[0] == '_' || inner[0] == '#' || inner[0] == '^' || inner[0] == '/' || inner[0] == '>')) {
        tag.kind = inner[0];
        inner.remove_prefix(1);
    }
    tag.name = inner;
    tag.end = close + 2;
    return tag;
}

/// The closing tag that matches a section named `name` opened just before `from`.
Tag matchingClose(std::string_view t, std::size_t from, std::string_view name) {
    int depth = 1;
    for (Tag tag = nextTag(t, from); tag.begin != std::string_view::npos; tag = nextTag(t, tag.end)) {
        if ((tag.kind == '#' || tag.kind == '^') && tag.name == name) ++depth;
        if (tag.kind == '/' && tag.name == name && --depth == 0) return tag;
    }
    throw std::runtime_error("section '" + std::string(name) + "' is not closed");
}

const std::string* findValue(const std::vector<const Context*>& scope, std::string_view name) {
    for (auto it = scope.rbegin(); it != scope.rend(); ++it) {
        auto v = (*it)->values.find(name);
        if (v != (*it)->values.end()) return &v->second;
    }
    return nullptr;
}

const std::vector<Context>* findList(const std::vector<const Context*>& scope, std::string_view name) {
    for (auto it = scope.rbegin(); it != scope.rend(); ++it) {
        auto l = (*it)->lists.find(name);
        if (l != (*it)->lists.end()) return &l->second;
    }
    return nullptr;
}

}  // namespace

void Templates::checkSections(const std::string& name, const std::string& text) {
    try {  // balanced sections, closed tags
        std::vector<std::string_view> open;
        for (Tag tag = nextTag(text, 0); tag.begin != std::string_view::npos; tag = nextTag(text, tag.end)) {
            if (tag.kind == '#' || tag.kind == '^') open.push_back(tag.name);
            if (tag.kind == '/') {
                if (open.empty() || open.back() != tag.name) throw std::runtime_error("unexpected {{/" + std::string(tag.name) + "}}");
                open.pop_back();
            }
        }
        if (!open.empty()) throw std::runtime_error("section '" + std::string(open.back()) + "' is not closed");
    } catch (const std::runtime_error& e) {
        throw std::runtime_error("template " + name + ": " + e.what());
    }
}

Templates Templates::fromSources(std::map<std::string, std::string, std::less<>> sources) {
    for (const auto& [name, text] : sources) checkSections(name, text);
    Templates t;
    t.sources_ = std::move(sources);
    return t;
}

Templates::Templates(const std::filesystem::path& dir) {
    if (!std::filesystem::is_directory(dir)) throw std::runtime_error("no template directory " + dir.string());
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".html") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        checkSections(entry.path().string(), text);
        sources_[entry.path().stem().string()] = text;
    }
    if (sources_.empty()) throw std::runtime_error("no templates in " + dir.string());
}

std::string Templates::render(std::string_view name, const Context& ctx, const Catalog& catalog) const {
    auto it = sources_.find(name);
    if (it == sources_.end()) throw std::runtime_error("no template named " + std::string(name));
    std::vector<const Context*> scope{&ctx};
    std::string out;
    out.reserve(it->second.size() * 2);
    renderText(it->second, scope, catalog, out, 0);
    return out;
}

void Templates::renderText(std::string_view t, std::vector<const Context*>& scope, const Catalog& catalog,
                           std::string& out, int depth) const {
    if (depth > 16) throw std::runtime_error("templates include each other too deeply");
    std::size_t pos = 0;
    for (Tag tag = nextTag(t, 0); tag.begin != std::string_view::npos; tag = nextTag(t, pos)) {
        out.append(t.substr(pos, tag.begin - pos));
        pos = tag.end;
        switch (tag.kind) {
            case 0:
            case '{': {
                const std::string* v = findValue(scope, tag.name);
                if (!v) throw std::runtime_error("template value '" + std::string(tag.name) + "' is not set");
                out += tag.kind == 0 ? escapeHtml(*v) : *v;
                break;
            }
            case '_': out += escapeHtml(catalog.get(tag.name)); break;
            case '>': {
                auto it = sources_.find(tag.name);
                if (it == sources_.end()) throw std::runtime_error("no template named " + std::string(tag.name));
                renderText(it->second, scope, catalog, out, depth + 1);
                break;
            }
            case '#':
            case '^': {
                const Tag close = matchingClose(t, tag.end, tag.name);
                const std::string_view body = t.substr(tag.end, close.begin - tag.end);
                pos = close.end;
                const std::vector<Context>* list = findList(scope, tag.name);
                const std::string* value = findValue(scope, tag.name);
                const bool truthy = list ? !list->empty() : (value && !value->empty());
                if (tag.kind == '^') {
                    if (!truthy) renderText(body, scope, catalog, out, depth + 1);
                } else if (list) {
                    for (const Context& item : *list) {
                        scope.push_back(&item);
                        renderText(body, scope, catalog, out, depth + 1);
                        scope.pop_back();
                    }
                } else if (truthy) {
                    renderText(body, scope, catalog, out, depth + 1);
                }
                break;
            }
            default: throw std::runtime_error("unexpected {{/" + std::string(tag.name) + "}}");
        }
    }
    out.append(t.substr(pos));
}

}  // namespace senet::site
