// A strict reader of the Prometheus text exposition format (version 0.0.4, as Prometheus and
// promtool read /metrics): every line is checked and the first fault throws with its line number.
// Stricter than Prometheus itself where a lax scrape would hide a daemon bug: a family's samples
// must follow its `# TYPE` line and stay together, a series may appear once, a histogram's buckets
// must rise in `le` and in count and end with `+Inf` equal to `_count`, and a counter may not be
// negative.
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kd_test {

struct ExpositionSample {
    std::string name;                           // as written: a histogram's end in _bucket, _sum, _count
    std::map<std::string, std::string> labels;  // unescaped values
    double value = 0;
};

struct ExpositionFamily {
    std::string name, type, help;
    std::vector<ExpositionSample> samples;
};

class ExpositionReader {
public:
    // Families by name; throws std::runtime_error("line N: what") at the first fault.
    static std::map<std::string, ExpositionFamily> read(std::string_view text) {
        ExpositionReader r;
        if (!text.empty() && text.back() != '\n') r.fail(0, "the text does not end with a newline");
        size_t line_no = 0;
        while (!text.empty()) {
            size_t end = text.find('\n');
            std::string_view line = text.substr(0, end);
            text.remove_prefix(end + 1);
            ++line_no;
            r.line(line_no, line);
        }
        r.close_family(line_no);
        return std::move(r.families_);
    }

private:
    [[noreturn]] static void fail(size_t line, const std::string& what) {
        throw std::runtime_error("line " + std::to_string(line) + ": " + what);
    }

    static bool name_char(char c, bool first, bool colon) {
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
        return alpha || (!first && c >= '0' && c <= '9');
    }
    static bool valid_name(std::string_view s, bool colon) {
        if (s.empty()) return false;
        for (size_t i = 0; i < s.size(); ++i)
            if (!name_char(s[i], i == 0, colon)) return false;
        return true;
    }
    static double number(size_t line, std::string_view s) {
        if (s == "+Inf" || s == "Inf") return INFINITY;
        if (s == "-Inf") return -INFINITY;
        if (s == "NaN") return NAN;
        std::string copy(s);
        char* end = nullptr;
        double v = std::strtod(copy.c_str(), &end);
        if (copy.empty() || end != copy.c_str() + copy.size() || copy.find_first_of("xXpP") != std::string::npos)
            fail(line, "'" + copy + "' is not a sample value");
        return v;
    }

    void line(size_t n, std::string_view l) {
        if (l.empty()) return;
        if (l[0] == '#') return comment(n, l);
        sample(n, l);
    }

    void comment(size_t n, std::string_view l) {
        bool help = l.rfind("# HELP ", 0) == 0, type = l.rfind("# TYPE ", 0) == 0;
        if (!help && !type) return;  // other comments are allowed and mean nothing
        l.remove_prefix(7);
        size_t sp = l.find(' ');
        std::string name(l.substr(0, sp));
        std::string rest(sp == std::string_view::npos ? "" : l.substr(sp + 1));
        if (!valid_name(name, true)) fail(n, "'" + name + "' is not a metric name");
        if (current_ != name) {
            close_family(n);
            if (families_.count(name)) fail(n, "family " + name + " appears a second time, apart from its samples");
            current_ = name;
            families_[name].name = name;
        }
        ExpositionFamily& f = families_[name];
        if (help) {
            if (!f.help.empty()) fail(n, "a second HELP for " + name);
            f.help = rest;
            return;
        }
        static const std::set<std::string> types{"counter", "gauge", "histogram", "summary", "untyped"};
        if (!types.count(rest)) fail(n, "'" + rest + "' is not a metric type (" + name + ")");
        if (!f.type.empty()) fail(n, "a second TYPE for " + name);
        if (!f.samples.empty()) fail(n, "the TYPE of " + name + " comes after its samples");
        f.type = rest;
    }

    // The family a sample name belongs to, given the current family's type.
    std::string family_of(size_t n, const std::string& sample) const {
        auto it = families_.find(current_);
        if (it == families_.end() || it->second.type.empty())
            fail(n, "sample " + sample + " has no # TYPE line before it");
        const ExpositionFamily& f = it->second;
        if (sample == f.name && f.type != "histogram" && f.type != "summary") return f.name;
        if (f.type == "histogram")
            for (const char* suffix : {"_bucket", "_sum", "_count"})
                if (sample == f.name + suffix) return f.name;
        fail(n, "sample " + sample + " does not belong to the " + f.type + " family " + f.name +
                    " it follows (a family's samples stay together)");
    }

    static std::map<std::string, std::string> labels(size_t n, std::string_view& l) {
        std::map<std::string, std::string> out;
        l.remove_prefix(1);  // '{'
        while (true) {
            if (!l.empty() && l[0] == '}') break;
            size_t eq = l.find('=');
            if (eq == std::string_view::npos) fail(n, "a label without '='");
            std::string name(l.substr(0, eq));
            if (!valid_name(name, false) || name.rfind("__", 0) == 0) fail(n, "'" + name + "' is not a label name");
            l.remove_prefix(eq + 1);
            if (l.empty() || l[0] != '"') fail(n, "label " + name + "'s value is not quoted");
            l.remove_prefix(1);
            std::string value;
            while (true) {
                if (l.empty()) fail(n, "label " + name + "'s value is not closed");
                char c = l[0];
                l.remove_prefix(1);
                if (c == '"') break;
                if (c == '\n') fail(n, "a raw newline in label " + name);
                if (c == '\\') {
                    if (l.empty()) fail(n, "a lone backslash in label " + name);
                    char e = l[0];
                    l.remove_prefix(1);
                    if (e == 'n')
                        value += '\n';
                    else if (e == '\\' || e == '"')
                        value += e;
                    else
                        fail(n, std::string("'\\") + e + "' is no escape of the format (label " + name + ")");
                    continue;
                }
                value += c;
            }
            if (!out.emplace(name, value).second) fail(n, "label " + name + " twice");
            if (!l.empty() && l[0] == ',') {
                l.remove_prefix(1);
                continue;
            }
            if (l.empty() || l[0] != '}') fail(n, "labels not closed by '}'");
        }
        l.remove_prefix(1);
        return out;
    }

    void sample(size_t n, std::string_view l) {
        size_t name_end = 0;
        while (name_end < l.size() && name_char(l[name_end], name_end == 0, true)) ++name_end;
        ExpositionSample s;
        s.name = std::string(l.substr(0, name_end));
        if (s.name.empty()) fail(n, "a line that is neither a comment nor a sample");
        l.remove_prefix(name_end);
        if (!l.empty() && l[0] == '{') s.labels = labels(n, l);
        if (l.empty() || l[0] != ' ') fail(n, "no value after " + s.name);
        l.remove_prefix(1);
        size_t sp = l.find(' ');
        s.value = number(n, l.substr(0, sp));
        if (sp != std::string_view::npos) {
            std::string_view ts = l.substr(sp + 1);
            if (ts.empty() || ts.find_first_not_of("-0123456789") != std::string_view::npos)
                fail(n, "'" + std::string(ts) + "' is not a timestamp");
        }
        ExpositionFamily& f = families_[family_of(n, s.name)];
        std::string series = s.name;
        for (const auto& [k, v] : s.labels) series += "\x1f" + k + "\x1e" + v;
        if (!series_.insert(series).second) fail(n, "series " + s.name + " appears twice with the same labels");
        if (f.type == "counter" && !(s.value >= 0)) fail(n, "counter " + s.name + " is negative or NaN");
        if (f.type == "histogram" && s.name == f.name + "_bucket" && !s.labels.count("le"))
            fail(n, "bucket of " + f.name + " without an le label");
        f.samples.push_back(std::move(s));
    }

    // A histogram's series, one per label set without `le`: buckets rising, +Inf last, = _count.
    void close_family(size_t n) {
        auto it = families_.find(current_);
        if (it == families_.end() || it->second.type != "histogram") return;
        const ExpositionFamily& f = it->second;
        struct Series {
            std::vector<std::pair<double, double>> buckets;
            double count = -1;
            bool sum = false;
        };
        std::map<std::map<std::string, std::string>, Series> by_labels;
        for (const ExpositionSample& s : f.samples) {
            auto key = s.labels;
            key.erase("le");
            Series& series = by_labels[key];
            if (s.name == f.name + "_bucket") series.buckets.emplace_back(number(n, s.labels.at("le")), s.value);
            if (s.name == f.name + "_count") series.count = s.value;
            if (s.name == f.name + "_sum") series.sum = true;
        }
        for (const auto& [key, s] : by_labels) {
            if (s.buckets.empty() || s.count < 0 || !s.sum)
                fail(n, "histogram " + f.name + " lacks buckets, _sum or _count for one of its series");
            for (size_t i = 1; i < s.buckets.size(); ++i)
                if (!(s.buckets[i].first > s.buckets[i - 1].first) || s.buckets[i].second < s.buckets[i - 1].second)
                    fail(n, "histogram " + f.name + "'s buckets do not rise in le and count");
            if (!std::isinf(s.buckets.back().first) || s.buckets.back().second != s.count)
                fail(n, "histogram " + f.name + "'s last bucket is not +Inf holding _count");
        }
    }

    std::map<std::string, ExpositionFamily> families_;
    std::set<std::string> series_;
    std::string current_;
};

}  // namespace kd_test
