// Says on stderr, after the judge's marker, why the harness prints no value (`kind`: the
// judge's word for the case), and ends the run with the harness's own exit status.
[[noreturn]] void refuse(const char* kind, const string& words) {
    fflush(stdout);
    fprintf(stderr, "@judge-harness %s %s\n", kind, words.c_str());
    exit(harness_exit);
}

// Reads JSON values one after another from all of stdin, and writes them compact.
struct Reader {
    string text;
    size_t at = 0;

    explicit Reader(FILE* file) {
        char buffer[1 << 16];
        for (size_t n; (n = fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
    }

    // JSON's four whitespace characters only, tested inline: reading is most of a big
    // case's time, and the harness should cost no more than a program's own fast reader.
    char peek() {
        while (at < text.size() && (text[at] == ' ' || text[at] == '\n' || text[at] == '\r' || text[at] == '\t')) at++;
        return at < text.size() ? text[at] : '\0';
    }

    void expect(char c) {
        if (peek() != c) refuse("unreadable", string("expected '") + c + "' at byte " + to_string(at));
        at++;
    }

    bool null() {
        if (peek() != 'n') return false;
        at += 4;
        return true;
    }

    // The JSON number here, as a C string (strtoll and strtod stop at its end).
    const char* number() {
        peek();
        return text.c_str() + at;
    }
};

// Digits read by hand (strtoll's locale and base handling cost twice the time on big arrays).
void read(Reader& in, long long& v) {
    const char* p = in.number();
    const char* start = p;
    bool negative = *p == '-';
    if (negative) p++;
    unsigned long long x = 0;
    while (*p >= '0' && *p <= '9') x = x * 10 + (unsigned long long)(*p++ - '0');
    if (p == start + negative || *p == '.' || *p == 'e' || *p == 'E') {
        refuse("unreadable", "expected an integer at byte " + to_string(in.at));
    }
    v = negative ? (long long)(0 - x) : (long long)x;
    in.at += p - start;
}

void read(Reader& in, int& v) {
    long long x;
    read(in, x);
    v = (int)x;
}

void read(Reader& in, double& v) {
    char* end;
    v = strtod(in.number(), &end);
    in.at = end - in.text.c_str();
}

void read(Reader& in, bool& v) {
    v = in.peek() == 't';
    in.at += v ? 4 : 5;
}

void read(Reader& in, string& v) {
    in.expect('"');
    v.clear();
    while (in.text[in.at] != '"') {
        char c = in.text[in.at++];
        if (c != '\\') {
            v += c;
            continue;
        }
        char e = in.text[in.at++];
        if (e == 'u') {
            unsigned code = stoul(in.text.substr(in.at, 4), nullptr, 16);
            in.at += 4;
            if (code >= 0xD800 && code < 0xDC00 && in.text.compare(in.at, 2, "\\u") == 0) {
                unsigned low = stoul(in.text.substr(in.at + 2, 4), nullptr, 16);
                in.at += 6;
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            }
            // UTF-8, as the string's other characters are.
            if (code < 0x80) {
                v += (char)code;
            } else if (code < 0x800) {
                v += (char)(0xC0 | code >> 6);
                v += (char)(0x80 | (code & 0x3F));
            } else if (code < 0x10000) {
                v += (char)(0xE0 | code >> 12);
                v += (char)(0x80 | (code >> 6 & 0x3F));
                v += (char)(0x80 | (code & 0x3F));
            } else {
                v += (char)(0xF0 | code >> 18);
                v += (char)(0x80 | (code >> 12 & 0x3F));
                v += (char)(0x80 | (code >> 6 & 0x3F));
                v += (char)(0x80 | (code & 0x3F));
            }
            continue;
        }
        const char* from = "\"\\/bfnrt";
        const char* to = "\"\\/\b\f\n\r\t";
        v += to[strchr(from, e) - from];
    }
    in.at++;
}

void read(Reader& in, char& v) {
    string s;
    read(in, s);
    v = s.empty() ? '\0' : s[0];
}

template <class T>
void read(Reader& in, vector<T>& v) {
    in.expect('[');
    v.clear();
    while (in.peek() != ']') {
        T x;
        read(in, x);
        v.push_back(std::move(x));
        if (in.peek() == ',') in.at++;
    }
    in.at++;
}

void write(string& out, long long v) { out += to_string(v); }

void write(string& out, int v) { out += to_string(v); }

void write(string& out, bool v) { out += v ? "true" : "false"; }

// Seventeen significant digits: the double reads back as itself. NaN and the infinities have
// no JSON: the judge's case, not the solution's.
void write(string& out, double v) {
    if (!isfinite(v)) refuse("not-json", isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
    char buffer[32];
    snprintf(buffer, sizeof buffer, "%.17g", v);
    out += buffer;
}

void write(string& out, const string& v) {
    out += '"';
    for (unsigned char c : v) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += (char)c;
        } else if (c < 0x20) {
            char buffer[8];
            snprintf(buffer, sizeof buffer, "\\u%04x", c);
            out += buffer;
        } else {
            out += (char)c;
        }
    }
    out += '"';
}

void write(string& out, char v) { write(out, string(1, v)); }

template <class T>
void write(string& out, const vector<T>& v) {
    out += '[';
    for (size_t i = 0; i < v.size(); i++) {
        if (i > 0) out += ',';
        write(out, (const T&)v[i]);
    }
    out += ']';
}
