// A tiny mustache-like template language for the site's pages.
//   {{name}}   the value, HTML-escaped        {{{name}}}  the value as it is
//   {{_key}}   the catalog string, escaped    {{>name}}   another template
//   {{#name}}…{{/name}} once per list item, or once when the value is non-empty
//   {{^name}}…{{/name}} when the list is empty or the value is empty or absent
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "senet/site_catalog.hpp"

namespace senet::site {

/// The values a template is rendered with: strings and lists of nested contexts.
struct Context {
    std::map<std::string, std::string, std::less<>> values;
    std::map<std::string, std::vector<Context>, std::less<>> lists;

    /// Sets a string value; returns *this for chaining.
    Context& set(std::string key, std::string value) {
        values[std::move(key)] = std::move(value);
        return *this;
    }
    /// The list named `key`, created empty when absent.
    std::vector<Context>& list(const std::string& key) { return lists[key]; }
};

/// Every template of a directory (NAME.html), checked for balanced sections when loaded.
class Templates {
public:
    /// Loads every *.html of `dir`. Throws std::runtime_error when none is found or one is broken.
    explicit Templates(const std::filesystem::path& dir);
    /// Templates given as text, `sources` mapping a name (without .html) to its text, with the
    /// same checks as loading a directory: the parse-from-string entry point (tests, fuzzing).
    /// Throws std::runtime_error naming the broken template; an empty map is allowed.
    static Templates fromSources(std::map<std::string, std::string, std::less<>> sources);
    /// Renders template `name` (without .html). Throws std::runtime_error on an unknown name.
    std::string render(std::string_view name, const Context& ctx, const Catalog& catalog) const;

private:
    Templates() = default;
    /// Throws std::runtime_error (prefixed with `name`) unless every tag of `text` is closed and
    /// its sections are balanced.
    static void checkSections(const std::string& name, const std::string& text);
    void renderText(std::string_view tpl, std::vector<const Context*>& scope, const Catalog& catalog,
                    std::string& out, int depth) const;
    std::map<std::string, std::string, std::less<>> sources_;
};

}  // namespace senet::site
