/*
 * fixedrate: a fixed-rate, coordinated-omission-corrected HTTP/1.1 load generator that costs almost nothing, so
 * that it does not disturb the server it measures on the same cores.
 *
 *   gcc -O2 -Wall -Wextra -o target/fixedrate loadtest/fixedrate.c
 *   target/fixedrate HOST PORT RATE SECONDS WARMUP_SECONDS CONNECTIONS [KEYS_FILE]
 *
 * Places POST /api/v1/orders requests (varied orders as FixedRateLoad.order() makes them) at RATE a second for
 * WARMUP_SECONDS unrecorded, then SECONDS recorded. Request i is due at t0 + i / RATE (CLOCK_MONOTONIC); at each
 * wake-up (epoll_pwait2 with a nanosecond timeout to the next due time and a timer slack of 1 ns; on a kernel without
 * it, epoll_wait with the timeout rounded up to a millisecond, said on stderr) every due request is sent on a free
 * keep-alive connection, and a request due while every connection is busy waits in the FIFO of due requests (the
 * FIFO is the range of request numbers due but not yet sent, since due times follow from the number). Each answer is
 * timed from when its request was due, never from when it was sent: a stalled server is charged for every request
 * it delayed. The summary on stderr gives the percentiles of how late after their due times requests left.
 *
 * Its cost is the kernel's: about two wake-ups a request (one when it is due, one when its answer comes) and a
 * send and a receive; 45-60 us of CPU a request on the 2-core VM where it was written, nearly all system time.
 * Waking on millisecond ticks instead saved ~20 us a request there but sent requests up to 1 ms late.
 *
 * One thread, level-triggered epoll, non-blocking sockets with TCP_NODELAY, CONNECTIONS connections opened at start,
 * at most one request in flight on each (no pipelining). No allocation after start: each connection's request is
 * built into its own buffer and its responses are parsed in place in its own 64 KiB input buffer. Responses may
 * arrive in several reads; their length comes from Content-Length or chunked transfer coding (trailers
 * skipped), or the status (1xx, 204, 304: no body); a response with neither ends when the server closes the
 * connection. A response that does not fit the input buffer, or bytes arriving with no request in flight, stop the
 * run with an error.
 *
 * With KEYS_FILE (API key secrets, one a line) each request carries "Authorization: Bearer" of one of them, picked
 * by the PRNG, and its body names no account; without it each body names "accountId":"lat-<0..49>".
 *
 * A connection the server closes (Connection: close, end of stream, reset) is reopened; a request in flight on it
 * counts as an error. Non-2xx answers are counted (non2xx) and their latency recorded all the same.
 *
 * Prints one line on stdout after the run, the fields of the recorded part only:
 *   fixedrate rate=.. seconds=.. connections=.. sent=.. answered=.. non2xx=.. errors=.. p50_us=.. p90_us=..
 *             p99_us=.. p999_us=.. max_us=.. cpu_user_s=.. cpu_sys_s=.. cpu_us_per_request=..
 * (one line; wrapped here) and a human summary on stderr. Percentiles come from a log-linear histogram: 1 us
 * buckets below 1,024 us, 128 buckets per power of two above (under 0.8% relative error), up to 60 s; each is the
 * highest value of its bucket, capped at the exact maximum. CPU is this process's own (getrusage) from the first
 * recorded request's due time to the end. Exit 0 when the run completed, 2 on bad arguments or a connection that
 * could not be opened or reopened, 3 when answers were still missing 60 s after the last request was due.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define IN_CAP (64 * 1024)
#define BODY_CAP 512
#define MAX_CONNECTIONS 10000
#define MAX_KEY 1024
#define DRAIN_NS (60LL * 1000000000LL)

/* ---- histogram: microseconds, 1 us buckets below 2^10, then 2^SUB_BITS buckets per power of two up to 60 s ---- */
#define LINEAR_BITS 10
#define SUB_BITS 7
#define HIST_MAX_US 60000000ULL
#define HIST_BUCKETS ((1 << LINEAR_BITS) + (26 - LINEAR_BITS + 1) * (1 << SUB_BITS))

struct histogram {
    uint64_t counts[HIST_BUCKETS];
    uint64_t count;
    uint64_t max_us;
};

static struct histogram latency;    /* answers, from their requests' due times */
static struct histogram lateness;   /* sends, from their due times: this generator's own delay */

static int bucket_of(uint64_t us) {
    if (us < (1u << LINEAR_BITS)) {
        return (int) us;
    }
    const int exponent = 63 - __builtin_clzll(us);
    const int sub = (int) (us >> (exponent - SUB_BITS)) - (1 << SUB_BITS);
    return (1 << LINEAR_BITS) + (exponent - LINEAR_BITS) * (1 << SUB_BITS) + sub;
}

/* the highest value that falls into bucket b */
static uint64_t bucket_high(int b) {
    if (b < (1 << LINEAR_BITS)) {
        return (uint64_t) b;
    }
    const int exponent = (b - (1 << LINEAR_BITS)) / (1 << SUB_BITS) + LINEAR_BITS;
    const uint64_t sub = (uint64_t) ((b - (1 << LINEAR_BITS)) % (1 << SUB_BITS)) + (1 << SUB_BITS);
    return ((sub + 1) << (exponent - SUB_BITS)) - 1;
}

static void record_ns(struct histogram *h, int64_t ns) {
    uint64_t us = ns > 0 ? (uint64_t) ns / 1000 : 0;
    if (us > HIST_MAX_US) {
        us = HIST_MAX_US;
    }
    h->counts[bucket_of(us)]++;
    h->count++;
    if (us > h->max_us) {
        h->max_us = us;
    }
}

static uint64_t percentile_us(const struct histogram *h, double percent) {
    if (h->count == 0) {
        return 0;
    }
    uint64_t rank = (uint64_t) (percent / 100.0 * (double) h->count + 0.999999);
    if (rank < 1) {
        rank = 1;
    }
    uint64_t seen = 0;
    for (int b = 0; b < HIST_BUCKETS; b++) {
        seen += h->counts[b];
        if (seen >= rank) {
            const uint64_t high = bucket_high(b);
            return high < h->max_us ? high : h->max_us;
        }
    }
    return h->max_us;
}

/* ---- the run's parameters and state ---- */

struct connection {
    int fd;
    int busy;              /* a request is in flight */
    int want_out;          /* EPOLLOUT is registered: the request was not written whole */
    uint64_t request;      /* number of the request in flight */
    int64_t due;           /* when it was due, CLOCK_MONOTONIC ns */
    size_t out_len, out_off;
    size_t in_len;
    char *out;
    char *in;
};

static const char *host;
static const char *port;
static long rate, seconds, warmup_seconds, connection_count;
static struct addrinfo *address;
static int epoll_fd;
static struct connection *connections;
static int *free_stack;
static int free_count;
static char **secrets;
static long secret_count;
static char host_header[512];
static size_t host_header_len;
static char run_id[16];

static uint64_t total, warmup_total;   /* requests in the whole run, in the warm-up */
static int64_t t0;
static uint64_t released;              /* requests due so far */
static uint64_t next_to_send;          /* requests sent so far; [next_to_send, released) wait for a connection */
static uint64_t finished;              /* requests answered or failed */
static uint64_t sent_rec, answered_rec, non2xx_rec, errors_rec;
static uint64_t answered_warm, non2xx_warm, errors_warm, reopened;
static uint64_t prng_state, key_state;   /* xorshift64 states, seeded by splitmix64 */
static struct rusage cpu_at_start;
static int cpu_started;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int64_t due_ns(uint64_t i) {
    return t0 + (int64_t) ((i / (uint64_t) rate) * 1000000000ULL
                           + (i % (uint64_t) rate) * 1000000000ULL / (uint64_t) rate);
}

static uint64_t xorshift(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

/* splitmix64: spreads a small seed over the 64 bits xorshift needs (never 0) */
static uint64_t seed_of(uint64_t seed) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z != 0 ? z : 1;
}

static void die(const char *what) {
    fprintf(stderr, "fixedrate: %s\n", what);
    exit(2);
}

static void die_errno(const char *what) {
    fprintf(stderr, "fixedrate: %s %s:%s: %s\n", what, host, port, strerror(errno));
    exit(2);
}

static long parse_long(const char *text, const char *name, long min, long max) {
    char *end;
    errno = 0;
    const long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > max) {
        fprintf(stderr, "fixedrate: %s must be a whole number from %ld to %ld, not \"%s\"\n", name, min, max, text);
        exit(2);
    }
    return value;
}

/* ---- connections ---- */

static void open_connection(struct connection *c, const char *verb) {
    const int fd = socket(address->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        die_errno("cannot create a socket for");
    }
    const struct timeval limit = {5, 0};   /* bounds the blocking connect below */
    const int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit) != 0
            || setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) {
        die_errno("cannot set the socket options for");
    }
    if (connect(fd, address->ai_addr, address->ai_addrlen) != 0) {
        fprintf(stderr, "fixedrate: cannot %s %s:%s: %s\n", verb, host, port, strerror(errno));
        exit(2);
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
        die_errno("cannot make non-blocking the connection to");
    }
    struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP, .data.u32 = (uint32_t) (c - connections)};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) {
        die_errno("cannot watch the connection to");
    }
    c->fd = fd;
    c->busy = 0;
    c->want_out = 0;
    c->in_len = 0;
    c->out_len = c->out_off = 0;
}

static void count_error(uint64_t request) {
    if (request >= warmup_total) {
        errors_rec++;
    } else {
        errors_warm++;
    }
    finished++;
}

/* closes c and opens it again (it stays where it is among the free connections, or becomes free) */
static void reopen(struct connection *c, const char *why) {
    const int was_busy = c->busy;
    if (was_busy) {
        count_error(c->request);
        if (errors_warm + errors_rec <= 10) {
            fprintf(stderr, "fixedrate: request %llu failed: %s\n", (unsigned long long) c->request, why);
        }
    }
    close(c->fd);
    reopened++;
    open_connection(c, "reopen a connection to");
    if (was_busy) {
        free_stack[free_count++] = (int) (c - connections);
    }
}

static void set_out_interest(struct connection *c, int want) {
    if (c->want_out == want) {
        return;
    }
    struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP | (want ? EPOLLOUT : 0),
                                .data.u32 = (uint32_t) (c - connections)};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &event) != 0) {
        die_errno("cannot watch the connection to");
    }
    c->want_out = want;
}

/* writes what is left of c's request; 0 when done or waiting for room, -1 when the connection failed */
static int flush_out(struct connection *c) {
    while (c->out_off < c->out_len) {
        const ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (n > 0) {
            c->out_off += (size_t) n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            set_out_interest(c, 1);
            return 0;
        } else {
            return -1;
        }
    }
    set_out_interest(c, 0);
    return 0;
}

/* ---- requests ---- */

static char *put(char *at, const char *text, size_t length) {
    memcpy(at, text, length);
    return at + length;
}

#define PUT_LITERAL(at, text) put((at), (text), sizeof(text) - 1)

static char *put_uint(char *at, uint64_t value) {
    char digits[20];
    int n = 0;
    do {
        digits[n++] = (char) ('0' + value % 10);
        value /= 10;
    } while (value != 0);
    while (n > 0) {
        *at++ = digits[--n];
    }
    return at;
}

/* the body of order n, as FixedRateLoad.order() makes it; returns its end */
static char *put_order(char *at, uint64_t n) {
    const uint64_t r = xorshift(&prng_state);
    const int buy = (int) (r & 1);
    const unsigned account = (unsigned) ((r >> 1) % 50);
    const unsigned quantity = 1 + (unsigned) ((r >> 8) % 9);
    const int market = (r >> 16) % 10 == 0;
    const int offset = (int) ((r >> 24) % 16) - 3;
    *at++ = '{';
    if (secret_count == 0) {
        at = PUT_LITERAL(at, "\"accountId\":\"lat-");
        at = put_uint(at, account);
        at = PUT_LITERAL(at, "\",");
    }
    if (market) {
        at = PUT_LITERAL(at, "\"symbol\":\"BTCUSD\",\"side\":\"");
        at = buy ? PUT_LITERAL(at, "BUY") : PUT_LITERAL(at, "SELL");
        at = PUT_LITERAL(at, "\",\"type\":\"MARKET\",\"quantity\":\"0.0");
    } else {
        at = PUT_LITERAL(at, "\"clientOrderId\":\"");
        at = put(at, run_id, strlen(run_id));
        *at++ = '-';
        at = put_uint(at, n);
        at = PUT_LITERAL(at, "\",\"symbol\":\"BTCUSD\",\"side\":\"");
        at = buy ? PUT_LITERAL(at, "BUY") : PUT_LITERAL(at, "SELL");
        at = PUT_LITERAL(at, "\",\"type\":\"LIMIT\",\"price\":\"");
        at = put_uint(at, (uint64_t) (buy ? 50000 - offset : 50000 + offset));
        at = PUT_LITERAL(at, ".00\",\"quantity\":\"0.0");
    }
    *at++ = (char) ('0' + quantity);
    return PUT_LITERAL(at, "\"}");
}

static void build_request(struct connection *c, uint64_t n) {
    static char body[BODY_CAP];
    const size_t body_len = (size_t) (put_order(body, n) - body);
    char *at = c->out;
    at = PUT_LITERAL(at, "POST /api/v1/orders HTTP/1.1\r\n");
    at = put(at, host_header, host_header_len);
    at = PUT_LITERAL(at, "Content-Type: application/json\r\n");
    if (secret_count > 0) {
        const char *secret = secrets[xorshift(&key_state) % (uint64_t) secret_count];
        at = PUT_LITERAL(at, "Authorization: Bearer ");
        at = put(at, secret, strlen(secret));
        at = PUT_LITERAL(at, "\r\n");
    }
    at = PUT_LITERAL(at, "Content-Length: ");
    at = put_uint(at, body_len);
    at = PUT_LITERAL(at, "\r\n\r\n");
    at = put(at, body, body_len);
    c->out_len = (size_t) (at - c->out);
    c->out_off = 0;
}

static void start_cpu_if_due(uint64_t n) {
    if (!cpu_started && n >= warmup_total) {
        getrusage(RUSAGE_SELF, &cpu_at_start);
        cpu_started = 1;
    }
}

/* sends every due request that has a free connection */
static void send_due(void) {
    while (next_to_send < released && free_count > 0) {
        struct connection *c = &connections[free_stack[--free_count]];
        const uint64_t n = next_to_send++;
        c->busy = 1;
        c->request = n;
        c->due = due_ns(n);
        if (n >= warmup_total) {
            sent_rec++;
            record_ns(&lateness, now_ns() - c->due);
        }
        build_request(c, n);
        if (flush_out(c) != 0) {
            reopen(c, strerror(errno));
        }
    }
}

/* ---- responses, parsed in place ---- */

/* the end of the line starting at p within [p, end), or NULL */
static const char *line_end(const char *p, const char *end) {
    const char *nl = memchr(p, '\n', (size_t) (end - p));
    return nl;
}

static int header_is(const char *line, size_t length, const char *name) {
    const size_t n = strlen(name);
    return length > n && strncasecmp(line, name, n) == 0 && line[n] == ':';
}

static const char *header_value(const char *line, const char *name, const char *eol) {
    const char *v = line + strlen(name) + 1;
    while (v < eol && (*v == ' ' || *v == '\t')) {
        v++;
    }
    return v;
}

static int contains_token(const char *v, const char *eol, const char *token) {
    const size_t n = strlen(token);
    for (const char *p = v; p + n <= eol; p++) {
        if (strncasecmp(p, token, n) == 0) {
            return 1;
        }
    }
    return 0;
}

/* length of a chunked body at p within [p, end): > 0 when whole, 0 when incomplete, -1 when malformed */
static long chunked_length(const char *p, const char *end) {
    const char *at = p;
    for (;;) {
        const char *eol = line_end(at, end);
        if (eol == NULL) {
            return 0;
        }
        char *hex_end;
        const unsigned long size = strtoul(at, &hex_end, 16);
        if (hex_end == at) {
            return -1;
        }
        at = eol + 1;
        if (size == 0) {
            for (;;) {   /* trailers, up to the empty line */
                eol = line_end(at, end);
                if (eol == NULL) {
                    return 0;
                }
                const int empty = eol == at || (eol == at + 1 && *at == '\r');
                at = eol + 1;
                if (empty) {
                    return at - p;
                }
            }
        }
        if ((size_t) (end - at) < size + 2) {
            return 0;
        }
        at += size;
        if (at[0] != '\r' || at[1] != '\n') {
            return -1;
        }
        at += 2;
    }
}

struct response {
    int status;
    size_t length;     /* head and body */
    int close_after;   /* Connection: close */
    int until_close;   /* no length: the body ends when the server closes */
};

/* parses the response at the start of c's input: 1 when whole, 0 when incomplete, -1 when malformed */
static int parse_response(struct connection *c, struct response *r) {
    const char *buf = c->in;
    const char *end = buf + c->in_len;
    const char *eol = line_end(buf, end);
    if (eol == NULL) {
        return 0;
    }
    if (eol - buf < 12 || strncmp(buf, "HTTP/1.", 7) != 0 || buf[8] != ' ') {
        return -1;
    }
    r->status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
    if (r->status < 100 || r->status > 999) {
        return -1;
    }
    long content_length = -1;
    int chunked = 0;
    r->close_after = buf[7] == '0';   /* HTTP/1.0 closes unless told otherwise; the service speaks 1.1 */
    r->until_close = 0;
    const char *line = eol + 1;
    for (;;) {
        eol = line_end(line, end);
        if (eol == NULL) {
            return 0;
        }
        const size_t length = (size_t) (eol - line);
        if (length == 0 || (length == 1 && *line == '\r')) {
            line = eol + 1;
            break;
        }
        if (header_is(line, length, "content-length")) {
            char *digits_end;
            content_length = strtol(header_value(line, "content-length", eol), &digits_end, 10);
            if (content_length < 0) {
                return -1;
            }
        } else if (header_is(line, length, "transfer-encoding")) {
            chunked = contains_token(header_value(line, "transfer-encoding", eol), eol, "chunked");
        } else if (header_is(line, length, "connection")) {
            const char *v = header_value(line, "connection", eol);
            if (contains_token(v, eol, "close")) {
                r->close_after = 1;
            } else if (contains_token(v, eol, "keep-alive")) {
                r->close_after = 0;
            }
        }
        line = eol + 1;
    }
    const size_t head = (size_t) (line - buf);
    if (r->status < 200 || r->status == 204 || r->status == 304) {
        r->length = head;
    } else if (chunked) {
        const long body = chunked_length(line, end);
        if (body <= 0) {
            return (int) body;
        }
        r->length = head + (size_t) body;
    } else if (content_length >= 0) {
        if (c->in_len < head + (size_t) content_length) {
            return 0;
        }
        r->length = head + (size_t) content_length;
    } else {
        r->until_close = 1;
        r->length = c->in_len;
        return 0;
    }
    return 1;
}

static void complete(struct connection *c, int status, int64_t at) {
    const int ok = status >= 200 && status < 300;
    if (c->request >= warmup_total) {
        record_ns(&latency, at - c->due);
        answered_rec++;
        non2xx_rec += !ok;
    } else {
        answered_warm++;
        non2xx_warm += !ok;
    }
    finished++;
    c->busy = 0;
    free_stack[free_count++] = (int) (c - connections);
}

static void on_readable(struct connection *c) {
    for (;;) {
        if (c->in_len == IN_CAP) {
            die("a response does not fit the 64 KiB input buffer");
        }
        const ssize_t n = recv(c->fd, c->in + c->in_len, IN_CAP - c->in_len, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        }
        if (n <= 0) {
            struct response r = {0};
            if (n == 0 && c->busy && c->in_len > 0 && parse_response(c, &r) == 0 && r.until_close) {
                complete(c, r.status, now_ns());
                reopen(c, "");
                return;
            }
            reopen(c, n == 0 ? "the server closed the connection" : strerror(errno));
            return;
        }
        const int filled = c->in_len + (size_t) n == IN_CAP;
        c->in_len += (size_t) n;
        for (;;) {
            if (c->in_len == 0) {
                break;
            }
            if (!c->busy) {   /* e.g. a 408 on an idle connection before the server closes it */
                fprintf(stderr, "fixedrate: bytes with no request in flight, reopening: %.*s\n",
                        (int) (c->in_len < 80 ? c->in_len : 80), c->in);
                reopen(c, "");
                return;
            }
            struct response r = {0};
            const int parsed = parse_response(c, &r);
            if (parsed < 0) {
                fprintf(stderr, "fixedrate: a malformed or oversized response: %.*s\n",
                        (int) (c->in_len < 200 ? c->in_len : 200), c->in);
                exit(2);
            }
            if (parsed == 0) {
                break;
            }
            if (r.status < 200) {   /* an interim answer: the final one follows */
                memmove(c->in, c->in + r.length, c->in_len - r.length);
                c->in_len -= r.length;
                continue;
            }
            complete(c, r.status, now_ns());
            memmove(c->in, c->in + r.length, c->in_len - r.length);
            c->in_len -= r.length;
            if (r.close_after || c->out_off < c->out_len) {
                /* closing, or answered before the whole request was written (the rest would corrupt the stream):
                   not busy any more, so it stays among the free connections */
                reopen(c, "");
                return;
            }
        }
        if (!filled) {
            return;   /* the socket had no more: epoll (level-triggered) reports what comes next, a close included */
        }
    }
}

/* ---- set-up and the loop ---- */

static void read_secrets(const char *path) {
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        fprintf(stderr, "fixedrate: cannot read the keys file %s: %s\n", path, strerror(errno));
        exit(2);
    }
    char line[MAX_KEY + 2];
    long capacity = 64;
    secrets = malloc((size_t) capacity * sizeof *secrets);
    while (fgets(line, sizeof line, file) != NULL) {
        size_t length = strlen(line);
        if (length > MAX_KEY && line[length - 1] != '\n') {
            die("a key in the keys file is longer than 1024 characters");
        }
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r' || line[length - 1] == ' ')) {
            line[--length] = '\0';
        }
        const char *start = line;
        while (*start == ' ' || *start == '\t') {
            start++;
        }
        if (*start == '\0') {
            continue;
        }
        if (secret_count == capacity) {
            capacity *= 2;
            secrets = realloc(secrets, (size_t) capacity * sizeof *secrets);
        }
        if (secrets == NULL || (secrets[secret_count++] = strdup(start)) == NULL) {
            die("out of memory reading the keys file");
        }
    }
    if (ferror(file)) {
        fprintf(stderr, "fixedrate: cannot read the keys file %s: %s\n", path, strerror(errno));
        exit(2);
    }
    fclose(file);
    if (secret_count == 0) {
        fprintf(stderr, "fixedrate: the keys file %s holds no secret\n", path);
        exit(2);
    }
}

/* waits for events until the monotonic time at, to the nanosecond where the kernel has epoll_pwait2 */
static int wait_until(struct epoll_event *events, int capacity, int64_t at) {
    static int coarse;
    const int64_t left = at - now_ns();
    if (left <= 0) {
        return epoll_wait(epoll_fd, events, capacity, 0);
    }
    if (!coarse) {
        const struct timespec timeout = {left / 1000000000LL, left % 1000000000LL};
        const int ready = epoll_pwait2(epoll_fd, events, capacity, &timeout, NULL);
        if (ready >= 0 || errno != ENOSYS) {
            return ready;
        }
        coarse = 1;
        fprintf(stderr, "fixedrate: no epoll_pwait2 in this kernel: requests may leave up to 1 ms after they are due"
                        " (they are timed from when they were due all the same)\n");
    }
    return epoll_wait(epoll_fd, events, capacity, (int) ((left + 999999) / 1000000));
}

static double seconds_of(struct timeval tv) {
    return (double) tv.tv_sec + (double) tv.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 7 && argc != 8) {
        fprintf(stderr, "usage: %s HOST PORT RATE SECONDS WARMUP_SECONDS CONNECTIONS [KEYS_FILE]\n", argv[0]);
        return 2;
    }
    host = argv[1];
    port = argv[2];
    parse_long(port, "PORT", 1, 65535);
    rate = parse_long(argv[3], "RATE", 1, 10000000);
    seconds = parse_long(argv[4], "SECONDS", 1, 86400);
    warmup_seconds = parse_long(argv[5], "WARMUP_SECONDS", 0, 86400);
    connection_count = parse_long(argv[6], "CONNECTIONS", 1, MAX_CONNECTIONS);
    if (argc == 8) {
        read_secrets(argv[7]);
    }
    const struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    const int resolved = getaddrinfo(host, port, &hints, &address);
    if (resolved != 0) {
        fprintf(stderr, "fixedrate: cannot resolve %s: %s\n", host, gai_strerror(resolved));
        return 2;
    }
    const int host_len = snprintf(host_header, sizeof host_header, "Host: %s:%s\r\n", host, port);
    if (host_len < 0 || (size_t) host_len >= sizeof host_header) {
        die("HOST is too long");
    }
    host_header_len = (size_t) host_len;
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    {   /* a run id as FixedRateLoad makes it: the start in milliseconds, in base 36 */
        uint64_t ms = (uint64_t) wall.tv_sec * 1000 + (uint64_t) wall.tv_nsec / 1000000;
        char digits[16];
        int n = 0;
        do {
            digits[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[ms % 36];
            ms /= 36;
        } while (ms != 0);
        for (int i = 0; i < n; i++) {
            run_id[i] = digits[n - 1 - i];
        }
        run_id[n] = '\0';
        prng_state = seed_of((uint64_t) wall.tv_nsec);   /* the orders differ from run to run, as their ids do */
        key_state = seed_of(7);
    }

    /* the default 50 us timer slack let requests leave up to 50 us late, which their latency (timed from when they
       were due) then carried: about +50 us at the median against the JSON-only server, for no CPU saved */
    if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) != 0) {
        fprintf(stderr, "fixedrate: cannot set the timer slack to 1 ns: %s\n", strerror(errno));
    }
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd < 0) {
        die("cannot create the epoll set");
    }
    const size_t out_cap = 256 + host_header_len + MAX_KEY + BODY_CAP;
    connections = calloc((size_t) connection_count, sizeof *connections);
    free_stack = calloc((size_t) connection_count, sizeof *free_stack);
    struct epoll_event *events = calloc((size_t) connection_count, sizeof *events);
    if (connections == NULL || free_stack == NULL || events == NULL) {
        die("out of memory");
    }
    for (long i = 0; i < connection_count; i++) {
        connections[i].out = malloc(out_cap);
        connections[i].in = malloc(IN_CAP);
        if (connections[i].out == NULL || connections[i].in == NULL) {
            die("out of memory");
        }
        open_connection(&connections[i], "connect to");
        free_stack[free_count++] = (int) i;
    }

    warmup_total = (uint64_t) rate * (uint64_t) warmup_seconds;
    total = warmup_total + (uint64_t) rate * (uint64_t) seconds;
    t0 = now_ns() + 1000000;   /* 1 ms from now */
    const int64_t give_up = due_ns(total - 1) + DRAIN_NS;
    int incomplete = 0;
    while (finished < total) {
        const int64_t now = now_ns();
        while (released < total && due_ns(released) <= now) {
            released++;
        }
        start_cpu_if_due(released > 0 ? released - 1 : 0);
        send_due();
        if (now > give_up) {
            incomplete = 1;
            break;
        }
        const int64_t wake = released < total ? due_ns(released) : give_up;
        const int ready = wait_until(events, (int) connection_count, wake);
        if (ready < 0) {
            if (errno == EINTR) {
                continue;
            }
            die("epoll_wait failed");
        }
        for (int e = 0; e < ready; e++) {
            struct connection *c = &connections[events[e].data.u32];
            if ((events[e].events & EPOLLOUT) && c->busy && flush_out(c) != 0) {
                reopen(c, strerror(errno));
                continue;
            }
            if (events[e].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
                on_readable(c);
            }
        }
    }
    struct rusage cpu_at_end;
    getrusage(RUSAGE_SELF, &cpu_at_end);
    if (!cpu_started) {
        cpu_at_start = cpu_at_end;
    }
    const double user = seconds_of(cpu_at_end.ru_utime) - seconds_of(cpu_at_start.ru_utime);
    const double sys = seconds_of(cpu_at_end.ru_stime) - seconds_of(cpu_at_start.ru_stime);
    const uint64_t missing = total - finished;
    errors_rec += missing;   /* still unanswered at the give-up time (0 when the run completed) */
    const double per_request = sent_rec > 0 ? (user + sys) * 1e6 / (double) sent_rec : 0.0;
    printf("fixedrate rate=%ld seconds=%ld connections=%ld sent=%llu answered=%llu non2xx=%llu errors=%llu"
           " p50_us=%llu p90_us=%llu p99_us=%llu p999_us=%llu max_us=%llu cpu_user_s=%.3f cpu_sys_s=%.3f"
           " cpu_us_per_request=%.2f\n",
           rate, seconds, connection_count, (unsigned long long) sent_rec, (unsigned long long) answered_rec,
           (unsigned long long) non2xx_rec, (unsigned long long) errors_rec,
           (unsigned long long) percentile_us(&latency, 50),
           (unsigned long long) percentile_us(&latency, 90), (unsigned long long) percentile_us(&latency, 99),
           (unsigned long long) percentile_us(&latency, 99.9), (unsigned long long) latency.max_us, user, sys,
           per_request);
    fflush(stdout);
    fprintf(stderr, "fixedrate: %ld/s for %ld s after %ld s warm-up, %ld connections to %s:%s%s:"
                    " %llu answered (%llu non-2xx), %llu errors; latency from the due time p50 %llu us, p99 %llu us,"
                    " p99.9 %llu us, max %llu us; sent after the due time (waking up, or waiting for a free"
                    " connection; part of that latency) p50 %llu us, p99 %llu us, p99.9 %llu us, max %llu us;"
                    " own CPU %.2f us/request (%.1f%% of a core);"
                    " warm-up: %llu answered (%llu non-2xx), %llu errors; %llu connections reopened\n",
            rate, seconds, warmup_seconds, connection_count, host, port, secret_count > 0 ? " with keys" : "",
            (unsigned long long) answered_rec, (unsigned long long) non2xx_rec, (unsigned long long) errors_rec,
            (unsigned long long) percentile_us(&latency, 50), (unsigned long long) percentile_us(&latency, 99),
            (unsigned long long) percentile_us(&latency, 99.9), (unsigned long long) latency.max_us,
            (unsigned long long) percentile_us(&lateness, 50), (unsigned long long) percentile_us(&lateness, 99),
            (unsigned long long) percentile_us(&lateness, 99.9), (unsigned long long) lateness.max_us,
            per_request,
            (user + sys) * 100.0 / (double) seconds, (unsigned long long) answered_warm,
            (unsigned long long) non2xx_warm, (unsigned long long) errors_warm, (unsigned long long) reopened);
    if (incomplete) {
        fprintf(stderr, "fixedrate: %llu requests still unanswered (or unsent) 60 s after the last was due\n",
                (unsigned long long) missing);
        return 3;
    }
    return 0;
}
