// The language list and Accept-Language negotiation.
#include "languages.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace senet::site {

namespace {

std::string lower(std::string_view s) {
    std::string out;
    for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// The q-value of a range's parameters ("q=0.5", any case); 1 without one, 0 when unreadable.
double quality(std::string_view params) {
    double q = 1;
    while (!params.empty()) {
        const std::size_t semi = params.find(';');
        const std::string p = lower(params.substr(0, semi));
        params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
        if (!p.starts_with("q=")) continue;
        const char* first = p.data() + 2;
        const char* last = p.data() + p.size();
        const auto [end, ec] = std::from_chars(first, last, q);
        if (ec != std::errc{} || end != last || !(q >= 0) || q > 1) q = 0;
    }
    return q;
}

}  // namespace

std::vector<Language> readLanguages(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::vector<Language> out;
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        Language lang;
        std::string extra;
        if (!(words >> lang.code)) continue;
        const bool codeOk = std::all_of(lang.code.begin(), lang.code.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || c == '-' || (c >= '0' && c <= '9');
        });
        if (!(words >> lang.dir) || (lang.dir != "ltr" && lang.dir != "rtl") || (words >> extra) || !codeOk)
            throw std::runtime_error(file.string() + ":" + std::to_string(number) + ": expected \"CODE ltr\" or \"CODE rtl\"");
        for (const Language& l : out)
            if (l.code == lang.code) throw std::runtime_error(file.string() + ":" + std::to_string(number) + ": " + lang.code + " twice");
        out.push_back(lang);
    }
    if (out.empty()) throw std::runtime_error(file.string() + ": no language");
    return out;
}

std::string negotiateLanguage(std::string_view header, const std::vector<std::string>& codes) {
    std::string best = codes.front();
    double bestQ = 0;
    while (!header.empty()) {
        const std::size_t comma = header.find(',');
        std::string_view item = header.substr(0, comma);
        header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
        const std::size_t semi = item.find(';');
        const double q = semi == std::string_view::npos ? 1 : quality(item.substr(semi + 1));
        const std::string tag = lower(item.substr(0, semi));
        // The whole tag when the site has it ("pt-br" one day), else its primary language.
        std::string pick;
        for (const std::string& code : codes)
            if (tag == code) pick = code;
        if (pick.empty()) {
            const std::string primary = tag.substr(0, tag.find('-'));
            for (const std::string& code : codes)
                if (primary == code) pick = code;
        }
        if (!pick.empty() && q > bestQ) {
            best = pick;
            bestQ = q;
        }
    }
    return best;
}

}  // namespace senet::site
