// Gettext .po parsing and catalog look-ups.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "senet/site_catalog.hpp"
#include "senet/site_list.hpp"
#include "senet/site_message.hpp"

namespace senet::site {

namespace {

std::mutex missingMutex;

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

/// Decodes one quoted .po string ("..." with C escapes); throws on malformed input.
std::string unquote(std::string_view s, int line) {
    s = trim(s);
    if (s.size() < 2 || s.front() != '"' || s.back() != '"')
        throw std::runtime_error("line " + std::to_string(line) + ": expected a quoted string");
    std::string out;
    for (std::size_t i = 1; i + 1 < s.size(); ++i) {
        char c = s[i];
        if (c == '"') throw std::runtime_error("line " + std::to_string(line) + ": unescaped quote");
        if (c != '\\') { out += c; continue; }
        if (i + 2 >= s.size()) throw std::runtime_error("line " + std::to_string(line) + ": dangling backslash");
        c = s[++i];
        switch (c) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            default: throw std::runtime_error("line " + std::to_string(line) + ": unknown escape \\" + std::string(1, c));
        }
    }
    return out;
}

/// Splits a key into text and number runs so "a.10" sorts after "a.2".
bool naturalLess(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
            std::size_t i2 = i, j2 = j;
            while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
            while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
            // Compared as numbers of any length: without leading zeros, the longer is larger.
            std::size_t ia = i, jb = j;
            while (ia + 1 < i2 && a[ia] == '0') ++ia;
            while (jb + 1 < j2 && b[jb] == '0') ++jb;
            if (i2 - ia != j2 - jb) return i2 - ia < j2 - jb;
            if (const int c = a.compare(ia, i2 - ia, b, jb, j2 - jb); c != 0) return c < 0;
            i = i2; j = j2;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i; ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

}  // namespace

Catalog Catalog::parse(std::string_view text, std::string lang) {
    Catalog c;
    c.formats_ = std::make_shared<MessageCache>(lang);
    c.lang_ = std::move(lang);
    enum class Field { None, Id, Str } field = Field::None;
    std::string id, str;
    bool haveEntry = false;
    auto flush = [&] {
        if (haveEntry && !id.empty()) c.entries_[id] = str;  // the header (empty msgid) is skipped
        id.clear(); str.clear(); haveEntry = false; field = Field::None;
    };
    int lineNo = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        const std::string_view line = trim(text.substr(pos, end - pos));
        ++lineNo;
        pos = end + 1;
        if (line.empty()) { if (field == Field::Str) flush(); if (end == text.size()) break; continue; }
        if (line.front() == '#') { if (end == text.size()) break; continue; }
        if (line.starts_with("msgctxt") || line.starts_with("msgid_plural") || line.starts_with("msgstr["))
            throw std::runtime_error("line " + std::to_string(lineNo) + ": msgctxt and plural forms are not used here");
        if (line.starts_with("msgid ")) {
            if (field == Field::Str) flush();
            if (field == Field::Id) throw std::runtime_error("line " + std::to_string(lineNo) + ": msgid without msgstr");
            field = Field::Id; haveEntry = true;
            id = unquote(line.substr(5), lineNo);
        } else if (line.starts_with("msgstr ")) {
            if (field != Field::Id) throw std::runtime_error("line " + std::to_string(lineNo) + ": msgstr without msgid");
            field = Field::Str;
            str = unquote(line.substr(6), lineNo);
        } else if (line.front() == '"') {
            if (field == Field::Id) id += unquote(line, lineNo);
            else if (field == Field::Str) str += unquote(line, lineNo);
            else throw std::runtime_error("line " + std::to_string(lineNo) + ": string outside an entry");
        } else {
            throw std::runtime_error("line " + std::to_string(lineNo) + ": cannot read '" + std::string(line.substr(0, 20)) + "'");
        }
        if (end == text.size()) break;
    }
    if (field == Field::Id) throw std::runtime_error("msgid without msgstr at end of file");
    flush();
    return c;
}

Catalog Catalog::load(const std::filesystem::path& file, std::string lang) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read catalog " + file.string());
    std::stringstream ss;
    ss << in.rdbuf();
    try {
        return parse(ss.str(), std::move(lang));
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(file.string() + ": " + e.what());
    }
}

bool Catalog::has(std::string_view key) const {
    auto it = entries_.find(key);
    return it != entries_.end() && !it->second.empty();
}

const std::string& Catalog::get(std::string_view key) const {
    auto it = entries_.find(key);
    if (it != entries_.end() && !it->second.empty()) return it->second;
    std::lock_guard lock(missingMutex);
    auto [slot, fresh] = missing_.try_emplace(std::string(key));
    if (fresh) {
        if (fallback_ && fallback_ != this && fallback_->has(key)) slot->second = fallback_->get(key);
        else slot->second = "\u27E6" + std::string(key) + "\u27E7";
    }
    return slot->second;
}

std::vector<std::string> Catalog::missing() const {
    std::lock_guard lock(missingMutex);
    std::vector<std::string> out;
    for (const auto& [k, v] : missing_) out.push_back(k);
    return out;
}

std::string Catalog::format(std::string_view key, const std::vector<std::pair<std::string, std::string>>& params) const {
    const std::string& text = get(key);
    if (text.find('{') == std::string::npos && text.find('\'') == std::string::npos) return text;
    try {
        if (!formats_) throw std::invalid_argument("no message cache");
        return formats_->format(key, text, params);
    } catch (const std::invalid_argument& e) {
        {
            std::lock_guard lock(missingMutex);
            bad_.try_emplace(std::string(key), e.what());
        }
        if (fallback_ && fallback_ != this && fallback_->has(key)) return fallback_->format(key, params);
        return substitute(text, params);
    }
}

void Catalog::validate() const {
    for (const auto& [key, text] : entries_) {
        try {
            messageArguments(text);
        } catch (const std::invalid_argument& e) {
            std::lock_guard lock(missingMutex);
            bad_.try_emplace(key, e.what());
        }
    }
}

std::vector<std::string> Catalog::badStrings() const {
    std::lock_guard lock(missingMutex);
    std::vector<std::string> out;
    for (const auto& [k, why] : bad_) out.push_back(k + ": " + why);
    return out;
}

std::vector<std::string> Catalog::keysWithPrefix(std::string_view prefix) const {
    std::vector<std::string> out;
    const Catalog* source = (fallback_ && fallback_ != this) ? fallback_ : this;  // English decides which keys exist
    for (auto it = source->entries_.lower_bound(prefix); it != source->entries_.end() && it->first.starts_with(prefix); ++it)
        out.push_back(it->first);
    std::sort(out.begin(), out.end(), naturalLess);
    return out;
}

std::string Catalog::joinList(const std::vector<std::string>& items, bool orList) const {
    return formatList(lang_, items, orList);
}

std::string substitute(std::string_view text, const std::vector<std::pair<std::string, std::string>>& params) {
    std::string out;
    out.reserve(text.size() + 16);
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '{') {
            const std::size_t close = text.find('}', i);
            if (close != std::string_view::npos) {
                const std::string_view name = text.substr(i + 1, close - i - 1);
                auto it = std::find_if(params.begin(), params.end(), [&](const auto& p) { return p.first == name; });
                if (it != params.end()) { out += it->second; i = close + 1; continue; }
            }
        }
        out += text[i++];
    }
    return out;
}

std::string escapeHtml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

}  // namespace senet::site
