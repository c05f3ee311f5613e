// The little JSON the C endpoints read: the top-level members of one JSON-RPC object,
// found as spans of the frame's text without building anything. Enough for the frames
// the benchmarks send, not a validating parser.
#ifndef SCENE_BENCH_JSON_H
#define SCENE_BENCH_JSON_H

#include <stddef.h>
#include <string.h>

typedef struct {
    const char *start;
    size_t length;
} span;

/// Skips one JSON value starting at `p`; returns the first byte after it, or NULL.
static inline const char *skip_value(const char *p, const char *end) {
    int depth = 0;
    int in_string = 0;
    for (; p < end; p++) {
        char c = *p;
        if (in_string) {
            if (c == '\\') p++;
            else if (c == '"') {
                in_string = 0;
                if (depth == 0) return p + 1;
            }
            continue;
        }
        switch (c) {
        case '"': in_string = 1; break;
        case '{': case '[': depth++; break;
        case '}': case ']':
            if (--depth == 0) return p + 1;
            if (depth < 0) return p;  // the end of the enclosing container
            break;
        case ',':
            if (depth == 0) return p;
            break;
        case ' ': case '\t': case '\r': case '\n': break;
        default:
            if (depth == 0) {  // a number, true, false or null
                while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ') p++;
                return p;
            }
        }
    }
    return NULL;
}

/// The members of a message the endpoints read; a member that is absent has no start.
typedef struct {
    span id, method, params, result, error;
} message;

/// Finds the top-level members of one JSON object; -1 when it cannot be read so.
static inline int parse(const char *p, size_t length, message *m) {
    const char *end = p + length;
    memset(m, 0, sizeof *m);
    while (p < end && *p != '{') p++;
    p++;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == ',' || *p == '\n')) p++;
        if (p >= end || *p == '}') return 0;
        if (*p != '"') return -1;
        const char *key = ++p;
        while (p < end && *p != '"') p++;
        size_t key_length = (size_t)(p - key);
        p++;
        while (p < end && (*p == ' ' || *p == ':')) p++;
        const char *value = p;
        p = skip_value(p, end);
        if (p == NULL) return -1;
        span s = {value, (size_t)(p - value)};
        if (key_length == 2 && memcmp(key, "id", 2) == 0) m->id = s;
        else if (key_length == 6 && memcmp(key, "method", 6) == 0) m->method = s;
        else if (key_length == 6 && memcmp(key, "params", 6) == 0) m->params = s;
        else if (key_length == 6 && memcmp(key, "result", 6) == 0) m->result = s;
        else if (key_length == 5 && memcmp(key, "error", 5) == 0) m->error = s;
    }
    return 0;
}

/// Whether `s` is exactly the text `quoted` (a JSON string with its quotes, or a literal).
static inline int is(span s, const char *quoted) {
    return s.length == strlen(quoted) && memcmp(s.start, quoted, s.length) == 0;
}

#endif
