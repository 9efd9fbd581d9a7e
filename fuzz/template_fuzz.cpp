// Fuzz target: the site's template language (server/site/src/template.cpp) through
// Templates::fromSources, the same checks the site runs on web/templates/*.html. Input: up to
// three templates "a", "b", "c" separated by a line "===". Template "a" is rendered with a
// context of values and nested lists and the English catalog of web/po/en.po.
// A broken template is refused with std::runtime_error (and so is a value that is not set, or
// including too deep); any other exception or a crash is a bug. When every template is valid
// UTF-8 the page is too, and a template without tags renders as itself.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "check.hpp"
#include "senet/site_catalog.hpp"
#include "template.hpp"

using namespace senet::site;
using senet::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Catalog english = Catalog::load(std::filesystem::path(SENET_WEB_ROOT) / "po" / "en.po", "en");
    static const Context context = [] {
        Context c;
        c.set("title", "Senet <&> \"quoted\"").set("empty", "").set("name", "Sénet").set("html", "<b>bold</b>");
        // Each item shadows its own list with an empty one, so that sections nested in
        // themselves stay cheap (otherwise 2^16 renders at the depth limit).
        for (int i = 0; i < 2; ++i) {
            Context item;
            item.set("name", "item " + std::to_string(i)).set("index", std::to_string(i));
            item.list("items");
            for (int j = 0; j < 2; ++j) {
                Context sub;
                sub.set("name", "sub " + std::to_string(j)).list("sub");
                sub.list("items");
                item.list("sub").push_back(sub);
            }
            c.list("items").push_back(item);
        }
        c.list("none");
        return c;
    }();

    std::string_view input(reinterpret_cast<const char*>(data), size);
    std::map<std::string, std::string, std::less<>> sources;
    bool utf8 = true;
    for (const char* name : {"a", "b", "c"}) {
        const std::size_t sep = input.find("\n===\n");
        const std::string_view text = input.substr(0, sep);
        utf8 = utf8 && senet::fuzz::validUtf8(text);
        sources[name] = std::string(text);
        if (sep == std::string_view::npos) break;
        input.remove_prefix(sep + 5);
    }
    const std::string a = sources["a"];
    std::string page;
    try {
        const Templates templates = Templates::fromSources(std::move(sources));
        page = templates.render("a", context, english);
    } catch (const std::runtime_error&) {
        return 0;  // refused with a reason
    }
    if (utf8) check(senet::fuzz::validUtf8(page), "a page from UTF-8 templates is not UTF-8", page);
    if (a.find("{{") == std::string::npos) check(page == a, "a template without tags is not rendered as itself", a);
    return 0;
}
