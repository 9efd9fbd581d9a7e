// Guest names (PROTOCOL.md "Lobby", "Guest names"): every Unicode class and length.
#include <gtest/gtest.h>

#include "guest_name.hpp"

namespace senet::server::lobby {
namespace {

void accepted(const std::string& typed, const std::string& expected) {
    const CheckedName c = checkGuestName(typed);
    EXPECT_TRUE(c.ok()) << typed << ": " << c.error.message;
    EXPECT_EQ(c.name, expected) << typed;
}

void refusedFor(const std::string& typed, const std::string& reason) {
    const CheckedName c = checkGuestName(typed);
    EXPECT_FALSE(c.ok()) << typed << " was accepted as " << c.name;
    EXPECT_EQ(c.error.reason, reason) << typed << ": " << c.error.message;
    EXPECT_FALSE(c.error.message.empty());
}

TEST(GuestName, LettersDigitsAndPunctuationInAnyScript) {
    accepted("Nefertari", "Nefertari");
    accepted("  Ahmose  ", "Ahmose");                       // trimmed
    accepted("\t\u3000Ahmose\n", "Ahmose");                 // any white space, ideographic space too
    accepted("J. R_Smith-3", "J. R_Smith-3");
    accepted("Zoë", "Zoë");
    accepted("Łukasz", "Łukasz");
    accepted("Ἀριστοτέλης", "Ἀριστοτέλης");               // Greek with tonos
    accepted("Пётр", "Пётр");
    accepted("محمد", "محمد");                               // Arabic, right to left
    accepted("שרה", "שרה");                                 // Hebrew, right to left
    accepted("नमस्ते", "नमस्ते");                               // Devanagari with vowel signs (marks)
    accepted("太郎", "太郎");
    accepted("ひらがな", "ひらがな");
    accepted("٣٤٥", "٣٤٥");                                 // Arabic-Indic digits
    accepted("Player 4821", "Player 4821");
}

TEST(GuestName, NormalisedToNfc) {
    // e + COMBINING ACUTE ACCENT becomes é (one code point).
    accepted("Rene\u0301", "Ren\u00e9");
    // 20 code points after NFC, 21 before: accepted.
    accepted("abcdefghijklmnopqrse\u0301", "abcdefghijklmnopqrs\u00e9");
    // A letter with a mark that has no precomposed form stays two code points (both count).
    accepted("q\u0301", "q\u0301");
}

TEST(GuestName, Lengths) {
    accepted(std::string(20, 'a'), std::string(20, 'a'));
    refusedFor(std::string(21, 'a'), "too-long");
    accepted("ааааааааааааааааааaa", "ааааааааааааааааааaa");  // 18 Cyrillic + 2 Latin: 20 code points
    refusedFor("ааааааааааааааааааaaa", "too-long");
    accepted("   " + std::string(20, 'b') + "   ", std::string(20, 'b'));  // trimming comes first
    EXPECT_TRUE(checkGuestName("").ok());
    EXPECT_EQ(checkGuestName("").name, "");       // none: the lobby draws a random name
    EXPECT_EQ(checkGuestName("    ").name, "");
}

TEST(GuestName, RefusedCharacters) {
    refusedFor("smile 😀", "character");          // emoji (So)
    refusedFor("👍", "character");
    refusedFor("a\u200Db", "character");           // zero width joiner (Cf)
    refusedFor("evil\u202Eftxt", "character");     // RIGHT-TO-LEFT OVERRIDE (Cf): no bidi tricks
    refusedFor("<b>x</b>", "character");
    refusedFor("a&b", "character");
    refusedFor("tab\tinside", "character");
    refusedFor("line\nbreak", "character");
    refusedFor("\u0301abc", "character");          // a mark with nothing before it
    refusedFor("a \u0301", "character");
    refusedFor("x\u00A0y", "character");           // no-break space: only the plain space
    refusedFor("Ⅻ", "character");                  // letter number (Nl), not a decimal digit
    refusedFor("½", "character");                  // No
    refusedFor("a\xff", "character");              // ill-formed UTF-8
    refusedFor("a\xc3", "character");
    refusedFor("two  spaces", "spaces");
}

TEST(GuestName, NoLinks) {
    refusedFor("http://x", "link");
    refusedFor("www.example", "link");
    refusedFor("WWW.SENET", "link");
    refusedFor("senet.example", "link");
    refusedFor("visit a.co now", "link");
    refusedFor("bit.ly", "link");
    accepted("J. Smith", "J. Smith");   // an initial is no domain
    accepted("v1.2", "v1.2");
    accepted("A.B", "A.B");
    accepted("...", "...");
}

TEST(GuestName, RandomNames) {
    for (int i = 0; i < 50; ++i) {
        const std::string n = randomGuestName();
        ASSERT_EQ(n.size(), 10u) << n;
        EXPECT_EQ(n.substr(0, 6), "Guest ");
        const int number = std::stoi(n.substr(6));
        EXPECT_GE(number, 1000);
        EXPECT_LE(number, 9999);
        EXPECT_TRUE(checkGuestName(n).ok());
    }
}

}  // namespace
}  // namespace senet::server::lobby
