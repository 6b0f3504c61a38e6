#include "config/label_selector_text.hpp"

#include <set>
#include <vector>

namespace kd::core {

namespace {

// The tokens of apimachinery's selector lexer: identifiers run until a space or one of the
// special characters; "in" and "notin" are identifiers with a meaning where an operator goes.
enum class Token { end, identifier, comma, open, close, equals, double_equals, not_equals, bang, greater, less };

struct Lexeme {
    Token token = Token::end;
    std::string_view text;
    size_t at = 0;  // 0-based offset in the selector
};

bool special(char c) {
    return c == ',' || c == '=' || c == '!' || c == '(' || c == ')' || c == '<' || c == '>';
}
bool space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::vector<Lexeme> lex(std::string_view s) {
    std::vector<Lexeme> out;
    size_t i = 0;
    while (i < s.size()) {
        if (space(s[i])) {
            ++i;
            continue;
        }
        size_t start = i;
        auto two = [&](char second) { return i + 1 < s.size() && s[i + 1] == second; };
        switch (s[i]) {
            case ',':
                out.push_back({Token::comma, s.substr(i++, 1), start});
                continue;
            case '(':
                out.push_back({Token::open, s.substr(i++, 1), start});
                continue;
            case ')':
                out.push_back({Token::close, s.substr(i++, 1), start});
                continue;
            case '>':
                out.push_back({Token::greater, s.substr(i++, 1), start});
                continue;
            case '<':
                out.push_back({Token::less, s.substr(i++, 1), start});
                continue;
            case '=':
                if (two('=')) {
                    out.push_back({Token::double_equals, s.substr(i, 2), start});
                    i += 2;
                } else {
                    out.push_back({Token::equals, s.substr(i++, 1), start});
                }
                continue;
            case '!':
                if (two('=')) {
                    out.push_back({Token::not_equals, s.substr(i, 2), start});
                    i += 2;
                } else {
                    out.push_back({Token::bang, s.substr(i++, 1), start});
                }
                continue;
            default:
                break;
        }
        while (i < s.size() && !space(s[i]) && !special(s[i])) ++i;
        out.push_back({Token::identifier, s.substr(start, i - start), start});
    }
    out.push_back({Token::end, {}, s.size()});
    return out;
}

class Parser {
public:
    explicit Parser(std::string_view text) : tokens_(lex(text)) {}

    ParsedSelector run() {
        ParsedSelector out;
        if (tokens_.front().token == Token::end) return out;  // "": every node
        for (;;) {
            if (!requirement(out.selector)) {
                out.problem = problem_;
                out.selector = {};
                return out;
            }
            const Lexeme& next = take();
            if (next.token == Token::end) return out;
            if (next.token != Token::comma) {
                fail(next, "expected \",\" between requirements");
                out.problem = problem_;
                out.selector = {};
                return out;
            }
        }
    }

private:
    const Lexeme& peek() const { return tokens_[pos_]; }
    const Lexeme& take() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }

    bool fail(const Lexeme& at, const std::string& what) {
        std::string found = at.token == Token::end ? "the end" : "\"" + std::string(at.text) + "\"";
        problem_ = "at character " + std::to_string(at.at + 1) + " (" + found + "): " + what;
        return false;
    }

    bool key(const Lexeme& l, std::string& out) {
        if (l.token != Token::identifier) return fail(l, "expected a label key");
        if (std::string why = kd::label_key_problem(l.text); !why.empty()) return fail(l, "invalid label key: " + why);
        out = std::string(l.text);
        return true;
    }
    bool value(const Lexeme& l, std::string& out) {
        if (!kd::label_value_valid(l.text))
            return fail(l,
                        "invalid label value: at most 63 characters of [A-Za-z0-9-_.], starting and ending "
                        "with a letter or digit");
        out = std::string(l.text);
        return true;
    }

    bool requirement(kd::LabelSelector& sel) {
        kd::LabelSelectorRequirement r;
        if (peek().token == Token::bang) {
            take();
            if (!key(take(), r.key)) return false;
            r.operator_ = "DoesNotExist";
            sel.matchExpressions.push_back(std::move(r));
            return true;
        }
        if (!key(take(), r.key)) return false;
        const Lexeme& op = peek();
        if (op.token == Token::comma || op.token == Token::end) {
            r.operator_ = "Exists";
            sel.matchExpressions.push_back(std::move(r));
            return true;
        }
        take();
        switch (op.token) {
            case Token::equals:
            case Token::double_equals:
            case Token::not_equals: {
                r.operator_ = op.token == Token::not_equals ? "NotIn" : "In";
                // An empty value is allowed ("tier=" matches the label set to "").
                std::string v;
                if (peek().token == Token::identifier) {
                    if (!value(take(), v)) return false;
                } else if (peek().token != Token::comma && peek().token != Token::end) {
                    return fail(peek(), "expected a label value");
                }
                r.values.push_back(std::move(v));
                break;
            }
            case Token::greater:
            case Token::less:
                return fail(op,
                            "the numeric comparisons > and < are not supported in this selector (use =, !=, "
                            "in, notin, exists or !exists)");
            case Token::identifier:
                if (op.text == "in" || op.text == "notin") {
                    r.operator_ = op.text == "in" ? "In" : "NotIn";
                    if (!values(r.values)) return false;
                    break;
                }
                [[fallthrough]];
            default:
                return fail(op, "expected an operator: =, ==, !=, in or notin (or \",\" after a key that must exist)");
        }
        sel.matchExpressions.push_back(std::move(r));
        return true;
    }

    // "(a, b, c)": at least one value; repeated values count once, as in apimachinery's string set.
    bool values(std::vector<std::string>& out) {
        if (const Lexeme& open = take(); open.token != Token::open) return fail(open, "expected \"(\" after in/notin");
        std::set<std::string> seen;
        for (;;) {
            std::string v;
            const Lexeme& l = peek();
            if (l.token == Token::identifier) {
                take();
                if (!value(l, v)) return false;
            } else if (l.token != Token::comma && l.token != Token::close) {
                return fail(l, "expected a value, \",\" or \")\"");
            }
            if (seen.insert(v).second) out.push_back(v);
            const Lexeme& sep = take();
            if (sep.token == Token::close) break;
            if (sep.token != Token::comma) return fail(sep, "expected \",\" or \")\"");
        }
        if (out.size() == 1 && out.front().empty())
            return fail(tokens_[pos_ - 1], "in and notin need at least one value");
        return true;
    }

    std::vector<Lexeme> tokens_;
    size_t pos_ = 0;
    std::string problem_;
};

}  // namespace

ParsedSelector parse_label_selector_text(std::string_view text) {
    return Parser(text).run();
}

}  // namespace kd::core
