// Fuzz target: the gettext .po parser of the site (Catalog::parse in server/site/src/catalog.cpp,
// which Catalog::load uses for web/po/*.po) and the look-ups the pages make. Malformed text is
// refused with std::runtime_error; any other exception or a crash is a bug. An accepted
// catalog, written back as .po text, parses to the same entries.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "check.hpp"
#include "senet/site_catalog.hpp"

using namespace senet::site;
using senet::fuzz::check;

namespace {

/// A .po string literal for `s`, escaped the way Catalog::parse reads it.
std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            default: out += c;
        }
    }
    return out + "\"";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Catalog english = Catalog::load(std::filesystem::path(SENET_WEB_ROOT) / "po" / "en.po", "en");
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Catalog c;
    try {
        c = Catalog::parse(text, "xx");
    } catch (const std::runtime_error& e) {
        check(std::string_view(e.what()).size() > 0, "a refusal without a reason", text);
        return 0;
    }
    (void)c.keysWithPrefix("");  // as the English catalog, which decides the keys of every page
    c.setFallback(&english);
    // What the pages do with a catalog.
    for (const auto& [key, value] : c.entries()) {
        check(!key.empty(), "an entry with an empty msgid", text);
        const std::string& got = c.get(key);
        check(value.empty() || got == value, "get() does not return the entry", key);
        (void)c.format(key, {{"a", "1"}, {"b", "2"}, {"n", "<3>"}});
        (void)escapeHtml(got);
    }
    (void)c.keysWithPrefix("");
    (void)c.keysWithPrefix("rules.");
    (void)c.joinList({"1", "4", "5"}, true);
    (void)c.joinList({"x", "y"}, false);
    (void)c.get("no.such.key");
    (void)c.missing();
    // Written back as .po text, the catalog parses to the same entries.
    std::string po = "msgid \"\"\nmsgstr \"\"\n\n";
    for (const auto& [key, value] : c.entries()) po += "msgid " + quote(key) + "\nmsgstr " + quote(value) + "\n\n";
    Catalog again;
    try {
        again = Catalog::parse(po, "xx");
    } catch (const std::runtime_error& e) {
        senet::fuzz::fail(std::string("a catalog written back does not parse: ") + e.what(), po);
    }
    check(again.entries() == c.entries(), "a catalog written back parses to other entries", po);
    return 0;
}
