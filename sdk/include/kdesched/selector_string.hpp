// Kubernetes label selectors in their string form ("zone=a,tier!=db,env in (p,q),!gpu,cores>4"),
// as accepted by labels.Parse. DefaultEvictorArgs and MigrationControllerArgs.nodeSelector use this form.
#pragma once

#include <kdesched/label_selector.hpp>
#include <kdesched/node_fit.hpp>
#include <kdesched/view.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kd {

// One parsed requirement of a string selector.
struct StringRequirement {
    enum class Op { equals, not_equals, in, not_in, exists, does_not_exist, greater_than, less_than };
    std::string key;
    Op op = Op::exists;
    std::vector<std::string> values;
    int64_t number = 0;  // the operand of greater_than / less_than
};

// A parsed string selector: requirements AND-ed; no requirement = matches everything.
class StringLabelSelector {
public:
    // Parses `text`; on failure returns nullopt and sets `*error` to a one-line explanation.
    static std::optional<StringLabelSelector> parse(std::string_view text, std::string* error);

    // True when there are no requirements (matches every node).
    bool empty() const { return requirements_.empty(); }
    // True when every requirement holds for `labels`.
    bool matches(const kd::KeyValues& labels) const;
    // The parsed requirements, in text order.
    const std::vector<StringRequirement>& requirements() const { return requirements_; }

private:
    std::vector<StringRequirement> requirements_;
};

namespace selector_detail {

// Tokens of labels.Parse's lexer.
enum class Tok { end, ident, in, notin, bang, neq, eq, deq, open, close, comma, gt, lt };

struct Token {
    Tok tok;
    std::string text;
};

inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
inline bool is_special(char c) {
    return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

inline std::vector<Token> lex(std::string_view s) {
    std::vector<Token> out;
    size_t i = 0;
    while (true) {
        while (i < s.size() && is_space(s[i])) ++i;
        if (i >= s.size()) break;
        char c = s[i];
        if (is_special(c)) {
            // Longest match among the two-character operators, as the Kubernetes lexer does.
            bool next_eq = i + 1 < s.size() && s[i + 1] == '=';
            if (next_eq && (c == '!' || c == '=')) {
                out.push_back({c == '!' ? Tok::neq : Tok::deq, c == '!' ? "!=" : "=="});
                i += 2;
            } else {
                Tok t = c == '!'   ? Tok::bang
                        : c == '=' ? Tok::eq
                        : c == '(' ? Tok::open
                        : c == ')' ? Tok::close
                        : c == ',' ? Tok::comma
                        : c == '>' ? Tok::gt
                                   : Tok::lt;
                out.push_back({t, std::string(1, c)});
                ++i;
            }
            continue;
        }
        size_t start = i;
        while (i < s.size() && !is_space(s[i]) && !is_special(s[i])) ++i;
        std::string word(s.substr(start, i - start));
        Tok t = word == "in" ? Tok::in : word == "notin" ? Tok::notin : Tok::ident;
        out.push_back({t, std::move(word)});
    }
    out.push_back({Tok::end, ""});
    return out;
}

class Parser {
public:
    explicit Parser(std::vector<Token> toks) : toks_(std::move(toks)) {}

    bool parse(std::vector<StringRequirement>& out, std::string& err) {
        while (true) {
            Tok t = peek_value();
            if (t == Tok::end) return true;
            if (t != Tok::ident && t != Tok::bang) {
                err = "found '" + shown(peek().text) + "', expected: !, identifier, or end of string";
                return false;
            }
            StringRequirement r;
            if (!requirement(r, err)) return false;
            out.push_back(std::move(r));
            const Token& sep = next();
            if (sep.tok == Tok::end) return true;
            if (sep.tok != Tok::comma) {
                err = "found '" + shown(sep.text) + "', expected: ',' or end of string";
                return false;
            }
            Tok after = peek_value();
            if (after != Tok::ident && after != Tok::bang) {
                err = "found '" + shown(peek().text) + "', expected: identifier after ','";
                return false;
            }
        }
    }

private:
    const Token& peek() const { return toks_[pos_]; }
    // In value context the keywords `in`/`notin` are plain identifiers (labels.Parse does the same).
    Tok peek_value() const {
        Tok t = toks_[pos_].tok;
        return t == Tok::in || t == Tok::notin ? Tok::ident : t;
    }
    const Token& next() {
        const Token& t = toks_[pos_];
        if (pos_ + 1 < toks_.size()) ++pos_;
        return t;
    }
    static std::string shown(const std::string& text) { return text.empty() ? "end of string" : text; }

    bool requirement(StringRequirement& r, std::string& err) {
        bool negated = false;
        if (peek().tok == Tok::bang) {
            negated = true;
            next();
        }
        if (peek_value() != Tok::ident) {
            err = "found '" + shown(peek().text) + "', expected: identifier";
            return false;
        }
        r.key = next().text;
        if (auto problem = kd::label_key_problem(r.key); !problem.empty()) {
            err = "invalid label key \"" + r.key + "\": " + problem;
            return false;
        }
        if (negated) {
            r.op = StringRequirement::Op::does_not_exist;
            return true;
        }
        Tok t = peek().tok;
        if (t == Tok::end || t == Tok::comma) {
            r.op = StringRequirement::Op::exists;
            return true;
        }
        const Token& op = next();
        switch (op.tok) {
            case Tok::in:
            case Tok::notin:
                r.op = op.tok == Tok::in ? StringRequirement::Op::in : StringRequirement::Op::not_in;
                if (!value_set(r.values, err)) return false;
                break;
            case Tok::eq:
            case Tok::deq:
            case Tok::neq:
            case Tok::gt:
            case Tok::lt:
                r.op = op.tok == Tok::neq  ? StringRequirement::Op::not_equals
                       : op.tok == Tok::gt ? StringRequirement::Op::greater_than
                       : op.tok == Tok::lt ? StringRequirement::Op::less_than
                                           : StringRequirement::Op::equals;
                if (!exact_value(r.values, err)) return false;
                break;
            default:
                err = "found '" + shown(op.text) + "', expected one of: in, notin, =, ==, !=, >, <";
                return false;
        }
        for (const auto& v : r.values) {
            if (!kd::label_value_valid(v)) {
                err = "invalid label value \"" + v + "\" for key \"" + r.key + "\"";
                return false;
            }
        }
        if (r.op == StringRequirement::Op::greater_than || r.op == StringRequirement::Op::less_than) {
            auto n = kd::detail::parse_int64(r.values.front());
            if (!n) {
                err = "for '>' and '<' the value must be an integer, got \"" + r.values.front() + "\"";
                return false;
            }
            r.number = *n;
        }
        return true;
    }

    // "(" values ")" with Kubernetes' tolerance for empty entries: "()", "(a,)", "(,a)" hold "".
    bool value_set(std::vector<std::string>& values, std::string& err) {
        const Token& open = next();
        if (open.tok != Tok::open) {
            err = "found '" + shown(open.text) + "', expected: '('";
            return false;
        }
        auto insert = [&](const std::string& v) {
            if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
        };
        if (peek().tok == Tok::close) {
            next();
            insert("");
            return true;
        }
        bool expect_value = true;
        while (true) {
            Tok t = peek_value();
            if (t == Tok::ident && expect_value) {
                insert(next().text);
                expect_value = false;
            } else if (t == Tok::comma) {
                if (expect_value) insert("");
                next();
                expect_value = true;
            } else if (t == Tok::close) {
                if (expect_value) insert("");
                next();
                return true;
            } else {
                err = "found '" + shown(peek().text) + "', expected: ',', ')' or identifier";
                return false;
            }
        }
    }

    // The operand of =, ==, !=, >, <: an identifier, or "" when the requirement ends right there.
    bool exact_value(std::vector<std::string>& values, std::string& err) {
        Tok t = peek().tok;
        if (t == Tok::end || t == Tok::comma) {
            values.push_back("");
            return true;
        }
        if (peek_value() != Tok::ident) {
            err = "found '" + shown(peek().text) + "', expected: identifier";
            return false;
        }
        values.push_back(next().text);
        return true;
    }

    std::vector<Token> toks_;
    size_t pos_ = 0;
};

}  // namespace selector_detail

inline std::optional<StringLabelSelector> StringLabelSelector::parse(std::string_view text, std::string* error) {
    using namespace selector_detail;
    StringLabelSelector sel;
    std::string err;
    Parser p(lex(text));
    if (!p.parse(sel.requirements_, err)) {
        if (error) *error = err;
        return std::nullopt;
    }
    return sel;
}

inline bool StringLabelSelector::matches(const kd::KeyValues& labels) const {
    using namespace selector_detail;
    for (const auto& r : requirements_) {
        auto got = labels.get(r.key);
        auto in_values = [&] { return got && std::find(r.values.begin(), r.values.end(), *got) != r.values.end(); };
        switch (r.op) {
            case StringRequirement::Op::equals:
            case StringRequirement::Op::in:
                if (!in_values()) return false;
                break;
            case StringRequirement::Op::not_equals:
            case StringRequirement::Op::not_in:
                if (in_values()) return false;
                break;
            case StringRequirement::Op::exists:
                if (!got) return false;
                break;
            case StringRequirement::Op::does_not_exist:
                if (got) return false;
                break;
            case StringRequirement::Op::greater_than:
            case StringRequirement::Op::less_than: {
                if (!got) return false;
                auto have = kd::detail::parse_int64(*got);
                if (!have) return false;
                bool ok = r.op == StringRequirement::Op::greater_than ? *have > r.number : *have < r.number;
                if (!ok) return false;
                break;
            }
        }
    }
    return true;
}

// The descheduler's PreEvictionFilter with nodeFit: the pod fits some ready node other than its
// own among those `selector` matches (every node when it is null).
inline bool pod_fits_any_other_selected_node(const Snapshot& snapshot, const Pod& pod, NodeRequestTotals& totals,
                                             const StringLabelSelector* selector) {
    return pod_fits_any_other_node_if(snapshot, pod, totals,
                                      [&](const Node& n) { return !selector || selector->matches(n.labels()); });
}

}  // namespace kd
