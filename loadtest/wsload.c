/*
 * wsload: order entry over WebSocket sessions (API.md, "Order entry on the stream"), at a fixed rate corrected for
 * coordinated omission, or closed-loop for the most the service takes, from a generator that costs little enough not
 * to disturb the server it measures on the same cores. The WebSocket sibling of fixedrate.c, built the same way.
 *
 *   gcc -O2 -Wall -Wextra -o target/wsload loadtest/wsload.c
 *   target/wsload HOST PORT MODE SECONDS WARMUP_SECONDS SESSIONS [KEYS_FILE] [ACK_FILE]
 *
 * Opens SESSIONS WebSocket connections to GET /api/v1/stream (plain ws://, no extension offered, so nothing is
 * compressed) and places orders on them as {"op":"place","id":"<n>.<slot>","order":{...}} text frames, for
 * WARMUP_SECONDS unrecorded, then SECONDS recorded. The server answers each once, on its connection, with
 * {"op":"result","id":...,"status":201,"order":{...}} or {"op":"result","id":...,"status":422,"error":{...}}, in any
 * order: the id names the order's number and its slot in the session's window, so an answer finds its order at once.
 * MODE is one of:
 *   rate=N    N orders a second across all sessions, as fixedrate: order i is due at t0 + i / N (CLOCK_MONOTONIC;
 *             epoll_pwait2 with a nanosecond timeout and a timer slack of 1 ns, or epoll_wait to the millisecond on a
 *             kernel without it, said on stderr), and is sent on a session with fewer than WSLOAD_WINDOW (default 1)
 *             orders in flight; one due while every session is full waits in the FIFO of due orders. Each answer is
 *             timed from its order's due time, never from when it was sent, so a stalled server is charged for every
 *             order it delayed; the summary on stderr also gives how late after their due times orders left.
 *   window=W  closed loop, as wrk: every session keeps W orders in flight and sends the next as soon as an answer
 *             comes; each answer is timed from when its order was sent. For the most orders a second.
 * Sessions with room take orders in turn (a ring), so load spreads over them. The orders sent in one wake-up leave in
 * one send() per session, and the answers that came together are read in one recv().
 *
 * Orders: varied as loadtest/common.lua's new_order_body() makes them: BTCUSD or ETHUSD, 10% MARKET, else LIMIT
 * within a few steps of the mid on both sides, mostly GTC, some IOC and FOK, a few postOnly; each with the clientOrderId
 * s<run>-<session>-<seq>, unique per run (run: WSLOAD_RUN_ID, else the start in ms in base 36). With KEYS_FILE (API
 * key secrets, one a line; "" or - for none) session i authenticates its upgrade with "Authorization: Bearer" of key
 * i mod nkeys, once, so all its orders are that key's account; their ids end in k<key number, from 1>. Without it no
 * key is sent (a service with ORDERS_AUTH=none): each session first sends {"op":"login","id":"login"}, which lifts
 * its message budget from ORDERS_WS_MAX_REQUESTS_PER_SECOND (20) to twice the keys' request budget as a key's upgrade
 * does, and session i's orders name "accountId":"ws-<i>".
 * With ACK_FILE, the clientOrderId of every order answered 201, warm-up included, is written to it, one a line, for
 * a zero-loss check (loadtest/ws.sh); a 201 whose order names another clientOrderId than the one sent is counted
 * (mismatched) and not written.
 *
 * Its cost is mostly the kernel's, as fixedrate's: in rate mode about two wake-ups an order (when it is due, when its
 * answer comes), a send and a receive, and a few us of its own work (building, masking, scanning the answer's JSON).
 * Measured on the 2-core VM where it was written, against the service on the same cores (ORDERS_AUTH=none, journal
 * sync none, no database), 5 s recorded after 2 s of warm-up: 45-60 us of CPU an order at 5,000 a second on 64
 * sessions, window 1, 70-90% of it system time (fixedrate, run in turns with it: 41-47 us a request), about 1%
 * of a core per 200 orders a second; with keys and PostgreSQL (journal fsync) 41 us at 3,000 a second. In rate mode
 * with every session full it sleeps until an answer comes rather than at each due time. Closed-loop it costs much less
 * per order, as answers and orders batch in each wake-up: 5.5 us at window=1 on 16 sessions (the service answering
 * 23,000 orders a second), 3.4 us at window=8.
 *
 * One thread, level-triggered epoll, non-blocking sockets with TCP_NODELAY, SESSIONS connections opened at start with
 * a blocking handshake (5 s bounds; anything but 101 stops the run with the server's answer; its Sec-WebSocket-Accept
 * is not checked). No allocation after start: each session has its window of slots, an output buffer for the frames
 * of its whole window (client frames are masked, RFC 6455 5.3, with a mask from the PRNG), and a 64 KiB input buffer
 * in which the server's frames (unmasked; 7-bit, 16-bit and 64-bit lengths; split over any number of reads) are
 * parsed in place. Server frames: text messages whose top-level "op" is "result" answer orders (by their id; the
 * login's is checked for 200); {"type":"error",...} with no id is counted and shown (the first ten), its code among
 * the error codes: the stream sends it for a message it could not take (an op it does not know; or the first of a
 * run of messages over the connection's budget, which it drops unread and never answers, so their orders stay in
 * flight: once such an error has come, the run gives up 5 s after the end and the last answer, exit 3, rather than
 * 60 s); any other text (heartbeats, channel updates) is ignored; a ping is answered with a pong; a close frame is
 * answered and the session reconnects, as does a session the server resets or ends, its orders in flight counted as
 * errors. A message over the input buffer, or fragmented (the server fragments only messages over 64 KiB), is
 * skipped and counted: an answer in one would be missing at the end. A result with an id not in flight is counted
 * (unmatched) and otherwise ignored.
 *
 * Prints one line on stdout after the run, the fields of the recorded part only:
 *   wsload mode=rate|window rate=.. window=.. seconds=.. sessions=.. sent=.. answered=.. non2xx=.. errors=..
 *          orders_per_s=.. p50_us=.. p90_us=.. p99_us=.. p999_us=.. max_us=.. cpu_user_s=.. cpu_sys_s=..
 *          cpu_us_per_order=..
 * (one line; wrapped here; rate=0 in window mode) and a human summary on stderr, with the answers per status and the
 * error codes seen. orders_per_s is the recorded orders answered (2xx or not) over SECONDS. Percentiles come from the
 * same log-linear histogram as fixedrate's: 1 us buckets below 1,024 us, 128 buckets per power of two above (under
 * 0.8% relative error), up to 60 s; each is the highest value of its bucket, capped at the exact maximum. CPU is this
 * process's own (getrusage) from the start of the recorded part to the end. Exit 0 when the run completed, 2 on bad
 * arguments or a session that could not be opened or reopened, 3 when answers were still missing 60 s after the
 * end (the last due time in rate mode), or 5 s after it and the last answer once an error with no id came.
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
#define PAYLOAD_CAP 512                  /* one place message */
#define FRAME_CAP (PAYLOAD_CAP + 8)      /* its frame: 2-byte header, 16-bit length, mask */
#define CONTROL_CAP (4 * (6 + 125))      /* pongs and a close waiting behind a full socket */
#define HANDSHAKE_CAP 2048               /* the upgrade request, less the key */
#define MAX_SESSIONS 10000
#define MAX_WINDOW 4096
#define MAX_KEY 1024
#define CID_CAP 64
#define CODE_CAP 40
#define MAX_CODES 16
#define MAX_STATUS 600
#define DRAIN_NS (60LL * 1000000000LL)
#define STALL_NS (5LL * 1000000000LL)
#define HANDSHAKE_SECONDS 5

enum { OP_CONTINUATION = 0x0, OP_TEXT = 0x1, OP_BINARY = 0x2, OP_CLOSE = 0x8, OP_PING = 0x9, OP_PONG = 0xA };

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

static struct histogram latency;    /* answers, from their orders' due (rate) or send (window) times */
static struct histogram lateness;   /* rate mode, sends from their due times: this generator's own delay */

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

struct slot {
    uint64_t order;        /* the order's number in the run */
    int64_t due;           /* when it was due (rate) or sent (window), CLOCK_MONOTONIC ns */
    int busy;              /* in flight */
    int recorded;          /* of the recorded part */
    size_t cid_len;
    char cid[CID_CAP];
};

struct session {
    int fd;
    int queued;            /* in the ring of sessions with room */
    int dirty;             /* in the list of sessions with frames to send */
    int want_out;          /* EPOLLOUT is registered: the output was not written whole */
    int in_fragment;       /* inside a fragmented message: its continuation frames are skipped */
    int key;               /* index into secrets, or -1 */
    int in_flight;
    int free_count;        /* slots free, their numbers in free_slots[0, free_count) */
    uint64_t seq;          /* orders this session placed */
    uint64_t skip;         /* payload bytes of a skipped frame still to come */
    struct slot *slots;
    int *free_slots;
    size_t out_len, out_off, out_cap;
    size_t in_len;
    char *out;
    char *in;
};

static const char *host;
static const char *port;
static int rate_mode;
static long rate, window, seconds, warmup_seconds, session_count;
static struct addrinfo *address;
static int epoll_fd;
static struct session *sessions;
static int *ring;                      /* sessions with room, in turn: ring[(ring_head + k) % session_count] */
static long ring_head, ring_count;
static int *dirty_list;
static long dirty_count;
static char **secrets;
static long secret_count;
static char host_header[512];
static size_t host_header_len;
static char run_id[48];
static FILE *ack_file;

static uint64_t total, warmup_total;   /* rate mode: orders in the whole run, in the warm-up */
static int64_t t0, warm_end, end_time;
static int64_t last_answer;            /* when the last answer came */
static uint64_t released;              /* rate mode: orders due so far */
static uint64_t next_to_send;          /* orders sent so far; in rate mode [next_to_send, released) wait */
static uint64_t finished;              /* orders answered or failed */
static uint64_t in_flight_total;
static uint64_t sent_rec, answered_rec, non2xx_rec, errors_rec;
static uint64_t sent_warm, answered_warm, non2xx_warm, errors_warm;
static uint64_t status_counts[MAX_STATUS];   /* every answer of the run by status; [0]: outside 100..599 */
static uint64_t logins, reopened, error_frames, unmatched, mismatched, skipped_messages, pings, pongs_dropped, acks_written;
static struct { char code[CODE_CAP]; uint64_t count; } codes[MAX_CODES];
static uint64_t codes_other;
static uint64_t prng_state;            /* xorshift64, seeded by splitmix64 */
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
    fprintf(stderr, "wsload: %s\n", what);
    exit(2);
}

static void die_errno(const char *what) {
    fprintf(stderr, "wsload: %s %s:%s: %s\n", what, host, port, strerror(errno));
    exit(2);
}

static long parse_long(const char *text, const char *name, long min, long max) {
    char *end;
    errno = 0;
    const long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > max) {
        fprintf(stderr, "wsload: %s must be a whole number from %ld to %ld, not \"%s\"\n", name, min, max, text);
        exit(2);
    }
    return value;
}

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

/* ---- the ring of sessions with room, and the list of sessions with frames to send ---- */

static void offer(struct session *s) {
    if (!s->queued && s->free_count > 0) {
        ring[(ring_head + ring_count) % session_count] = (int) (s - sessions);
        ring_count++;
        s->queued = 1;
    }
}

static struct session *take(void) {
    struct session *s = &sessions[ring[ring_head]];
    ring_head = (ring_head + 1) % session_count;
    ring_count--;
    s->queued = 0;
    return s;
}

static void mark_dirty(struct session *s) {
    if (!s->dirty) {
        dirty_list[dirty_count++] = (int) (s - sessions);
        s->dirty = 1;
    }
}

/* ---- frames out: masked (RFC 6455 5.3), into the session's output buffer ---- */

/* appends a frame; 0 when done, -1 when the output buffer has no room (only a control frame can find none) */
static int put_frame(struct session *s, int opcode, const char *payload, size_t length) {
    const size_t size = length + (length < 126 ? 6 : 8);
    if (s->out_off == s->out_len) {
        s->out_off = s->out_len = 0;
    }
    if (s->out_cap - s->out_len < size && s->out_off > 0) {
        memmove(s->out, s->out + s->out_off, s->out_len - s->out_off);
        s->out_len -= s->out_off;
        s->out_off = 0;
    }
    if (s->out_cap - s->out_len < size) {
        return -1;
    }
    unsigned char *at = (unsigned char *) s->out + s->out_len;
    *at++ = (unsigned char) (0x80 | opcode);
    if (length < 126) {
        *at++ = (unsigned char) (0x80 | length);
    } else {
        *at++ = 0x80 | 126;
        *at++ = (unsigned char) (length >> 8);
        *at++ = (unsigned char) length;
    }
    const uint32_t mask = (uint32_t) xorshift(&prng_state);
    unsigned char key[4];
    memcpy(key, &mask, 4);
    memcpy(at, key, 4);
    at += 4;
    for (size_t i = 0; i < length; i++) {
        at[i] = (unsigned char) payload[i] ^ key[i & 3];
    }
    s->out_len += size;
    mark_dirty(s);
    return 0;
}

/* ---- sessions ---- */

static void set_out_interest(struct session *s, int want) {
    if (s->want_out == want) {
        return;
    }
    struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP | (want ? EPOLLOUT : 0),
                                .data.u32 = (uint32_t) (s - sessions)};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_MOD, s->fd, &event) != 0) {
        die_errno("cannot watch the session to");
    }
    s->want_out = want;
}

/* writes what is left of s's output; 0 when done or waiting for room, -1 when the connection failed */
static int flush_out(struct session *s) {
    while (s->out_off < s->out_len) {
        const ssize_t n = send(s->fd, s->out + s->out_off, s->out_len - s->out_off, MSG_NOSIGNAL);
        if (n > 0) {
            s->out_off += (size_t) n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            set_out_interest(s, 1);
            return 0;
        } else {
            return -1;
        }
    }
    s->out_off = s->out_len = 0;
    set_out_interest(s, 0);
    return 0;
}

static void base64(char *out, const unsigned char *in, size_t length) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i = 0;
    for (; i + 3 <= length; i += 3) {
        const uint32_t v = (uint32_t) in[i] << 16 | (uint32_t) in[i + 1] << 8 | in[i + 2];
        *out++ = alphabet[v >> 18];
        *out++ = alphabet[(v >> 12) & 63];
        *out++ = alphabet[(v >> 6) & 63];
        *out++ = alphabet[v & 63];
    }
    if (length - i == 1) {
        const uint32_t v = (uint32_t) in[i] << 16;
        *out++ = alphabet[v >> 18];
        *out++ = alphabet[(v >> 12) & 63];
        *out++ = '=';
        *out++ = '=';
    } else if (length - i == 2) {
        const uint32_t v = (uint32_t) in[i] << 16 | (uint32_t) in[i + 1] << 8;
        *out++ = alphabet[v >> 18];
        *out++ = alphabet[(v >> 12) & 63];
        *out++ = alphabet[(v >> 6) & 63];
        *out++ = '=';
    }
    *out = '\0';
}

/* the line of a header named name (case-insensitive) in the response head, or NULL */
static const char *find_header(const char *head, const char *name) {
    const size_t n = strlen(name);
    for (const char *line = strchr(head, '\n'); line != NULL; line = strchr(line, '\n')) {
        line++;
        if (strncasecmp(line, name, n) == 0 && line[n] == ':') {
            return line;
        }
    }
    return NULL;
}

/* reads the upgrade's answer up to its empty line, and no further (the frames after it stay in the socket, for
   epoll to report); 0 when whole, -1 on an error or timeout (errno), -2 when the server closed first */
static int read_head(int fd, char *buf, size_t cap, size_t *length) {
    size_t have = 0;
    for (;;) {
        if (have + 1 >= cap) {
            errno = EMSGSIZE;
            return -1;
        }
        const ssize_t n = recv(fd, buf + have, cap - 1 - have, MSG_PEEK);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return -1;
        }
        if (n == 0) {
            buf[have] = '\0';
            *length = have;
            return -2;
        }
        size_t take = (size_t) n;
        const size_t from = have > 3 ? have - 3 : 0;
        for (size_t i = from; i + 4 <= have + (size_t) n; i++) {
            if (memcmp(buf + i, "\r\n\r\n", 4) == 0) {
                take = i + 4 - have;
                break;
            }
        }
        const ssize_t got = recv(fd, buf + have, take, 0);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return -1;
        }
        have += (size_t) got;
        if (have >= 4 && memcmp(buf + have - 4, "\r\n\r\n", 4) == 0) {
            buf[have] = '\0';
            *length = have;
            return 0;
        }
    }
}

/* connects s and upgrades it to a WebSocket stream, blocking (5 s bounds), then leaves it non-blocking in the set */
static void open_session(struct session *s, const char *verb) {
    const int fd = socket(address->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        die_errno("cannot create a socket for");
    }
    const struct timeval limit = {HANDSHAKE_SECONDS, 0};
    const int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit) != 0
            || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit) != 0
            || setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) {
        die_errno("cannot set the socket options for");
    }
    if (connect(fd, address->ai_addr, address->ai_addrlen) != 0) {
        fprintf(stderr, "wsload: cannot %s %s:%s: %s\n", verb, host, port, strerror(errno));
        exit(2);
    }
    unsigned char nonce[16];
    for (int i = 0; i < 16; i += 8) {
        const uint64_t r = xorshift(&prng_state);
        memcpy(nonce + i, &r, 8);
    }
    char key[32];
    base64(key, nonce, sizeof nonce);
    char *at = s->out;
    at = PUT_LITERAL(at, "GET /api/v1/stream HTTP/1.1\r\n");
    at = put(at, host_header, host_header_len);
    at = PUT_LITERAL(at, "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ");
    at = put(at, key, strlen(key));
    at = PUT_LITERAL(at, "\r\n");
    if (s->key >= 0) {
        at = PUT_LITERAL(at, "Authorization: Bearer ");
        at = put(at, secrets[s->key], strlen(secrets[s->key]));
        at = PUT_LITERAL(at, "\r\n");
    }
    at = PUT_LITERAL(at, "\r\n");
    for (size_t off = 0, length = (size_t) (at - s->out); off < length;) {
        const ssize_t n = send(fd, s->out + off, length - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            fprintf(stderr, "wsload: cannot send the upgrade to %s:%s: %s\n", host, port, strerror(errno));
            exit(2);
        }
        off += (size_t) n;
    }
    size_t length = 0;
    const int head = read_head(fd, s->in, IN_CAP, &length);
    if (head == -1) {
        fprintf(stderr, "wsload: no answer to the upgrade from %s:%s: %s\n", host, port,
                errno == EAGAIN || errno == EWOULDBLOCK ? "timed out" : strerror(errno));
        exit(2);
    }
    if (head == -2 || length < 12 || strncmp(s->in, "HTTP/1.1 101", 12) != 0) {
        /* the body may follow the head: show what came of it without waiting long */
        const struct timeval brief = {0, 200000};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &brief, sizeof brief);
        const ssize_t body = head == -2 ? 0 : recv(fd, s->in + length, IN_CAP - 1 - length, 0);
        s->in[length + (body > 0 ? (size_t) body : 0)] = '\0';
        fprintf(stderr, "wsload: %s:%s refused the upgrade to a stream%s: %.600s\n", host, port,
                s->key >= 0 ? " (with a key)" : " (without a key)", length > 0 ? s->in : "(closed, no answer)");
        exit(2);
    }
    if (find_header(s->in, "sec-websocket-extensions") != NULL) {
        fprintf(stderr, "wsload: %s:%s accepted an extension none was offered: %.600s\n", host, port, s->in);
        exit(2);
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
        die_errno("cannot make non-blocking the session to");
    }
    struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP, .data.u32 = (uint32_t) (s - sessions)};
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) {
        die_errno("cannot watch the session to");
    }
    s->fd = fd;
    s->want_out = 0;
    s->in_fragment = 0;
    s->skip = 0;
    s->in_len = 0;
    s->out_len = s->out_off = 0;
    s->in_flight = 0;
    s->free_count = 0;
    for (int i = (int) window - 1; i >= 0; i--) {
        s->slots[i].busy = 0;
        s->free_slots[s->free_count++] = i;
    }
    if (s->key < 0) {   /* authentication off: a login (no key) lifts the budget of a connection that never logs in */
        static const char login[] = "{\"op\":\"login\",\"id\":\"login\"}";
        put_frame(s, OP_TEXT, login, sizeof login - 1);
    }
}

static void count_error(const struct slot *slot) {
    if (slot->recorded) {
        errors_rec++;
    } else {
        errors_warm++;
    }
    finished++;
}

static void release_slot(struct session *s, struct slot *slot) {
    slot->busy = 0;
    s->free_slots[s->free_count++] = (int) (slot - s->slots);
    s->in_flight--;
    in_flight_total--;
    offer(s);
}

/* closes s and opens it again; its orders in flight count as errors */
static void reopen(struct session *s, const char *why) {
    if (reopened < 10) {
        fprintf(stderr, "wsload: session %ld lost (%s) with %d orders in flight; reconnecting\n",
                (long) (s - sessions), why, s->in_flight);
    }
    for (long i = 0; i < window; i++) {
        if (s->slots[i].busy) {
            count_error(&s->slots[i]);
            in_flight_total--;
        }
    }
    close(s->fd);
    reopened++;
    open_session(s, "reopen a session to");
    offer(s);
}

/* ---- orders ---- */

struct instrument {
    const char *symbol;
    long mid_cents, step_cents;
    const char *quantities[5];
};

static const struct instrument instruments[2] = {
    {"BTCUSD", 5000000, 50, {"0.0010", "0.0050", "0.0100", "0.0500", "0.1000"}},
    {"ETHUSD", 300000, 5, {"0.010", "0.050", "0.100", "0.500", "1.000"}},
};

/* order n of session s, as common.lua's new_order_body() makes it, with its clientOrderId written to slot */
static char *put_order(char *at, struct session *s, struct slot *slot) {
    const uint64_t r = xorshift(&prng_state);
    const struct instrument *inst = &instruments[r & 1];
    const int buy = (int) ((r >> 1) & 1);
    const char *quantity = inst->quantities[(r >> 2) % 5];
    const int market = (r >> 8) % 10 == 0;
    const long offset = (long) ((r >> 16) % 16) - 3;   /* -3..12 steps: buys mostly below the mid, sells above */
    const unsigned tif = (unsigned) ((r >> 24) % 100);

    char *cid = slot->cid;
    *cid++ = 's';
    cid = put(cid, run_id, strlen(run_id));
    *cid++ = '-';
    cid = put_uint(cid, (uint64_t) (s - sessions));
    *cid++ = '-';
    cid = put_uint(cid, ++s->seq);
    if (s->key >= 0) {
        *cid++ = 'k';
        cid = put_uint(cid, (uint64_t) s->key + 1);
    }
    slot->cid_len = (size_t) (cid - slot->cid);

    *at++ = '{';
    if (s->key < 0) {
        at = PUT_LITERAL(at, "\"accountId\":\"ws-");
        at = put_uint(at, (uint64_t) (s - sessions));
        at = PUT_LITERAL(at, "\",");
    }
    at = PUT_LITERAL(at, "\"clientOrderId\":\"");
    at = put(at, slot->cid, slot->cid_len);
    at = PUT_LITERAL(at, "\",\"symbol\":\"");
    at = put(at, inst->symbol, 6);
    at = buy ? PUT_LITERAL(at, "\",\"side\":\"BUY\"") : PUT_LITERAL(at, "\",\"side\":\"SELL\"");
    if (market) {
        at = PUT_LITERAL(at, ",\"type\":\"MARKET\"");
    } else {
        at = PUT_LITERAL(at, ",\"type\":\"LIMIT\",\"timeInForce\":\"");
        at = tif < 10 ? PUT_LITERAL(at, "IOC") : tif < 15 ? PUT_LITERAL(at, "FOK") : PUT_LITERAL(at, "GTC");
        at = tif >= 15 && tif < 20 ? PUT_LITERAL(at, "\",\"postOnly\":true") : PUT_LITERAL(at, "\",\"postOnly\":false");
        const long cents = buy ? inst->mid_cents - offset * inst->step_cents : inst->mid_cents + offset * inst->step_cents;
        at = PUT_LITERAL(at, ",\"price\":\"");
        at = put_uint(at, (uint64_t) (cents / 100));
        *at++ = '.';
        *at++ = (char) ('0' + cents % 100 / 10);
        *at++ = (char) ('0' + cents % 10);
        *at++ = '"';
    }
    at = PUT_LITERAL(at, ",\"quantity\":\"");
    at = put(at, quantity, strlen(quantity));
    return PUT_LITERAL(at, "\"}");
}

/* puts order n (due at due) in a free slot of s and its frame in s's output */
static void place(struct session *s, uint64_t n, int64_t due, int recorded) {
    static char payload[PAYLOAD_CAP];
    const int index = s->free_slots[--s->free_count];
    struct slot *slot = &s->slots[index];
    slot->busy = 1;
    slot->order = n;
    slot->due = due;
    slot->recorded = recorded;
    char *at = payload;
    at = PUT_LITERAL(at, "{\"op\":\"place\",\"id\":\"");
    at = put_uint(at, n);
    *at++ = '.';
    at = put_uint(at, (uint64_t) index);
    at = PUT_LITERAL(at, "\",\"order\":");
    at = put_order(at, s, slot);
    *at++ = '}';
    if (put_frame(s, OP_TEXT, payload, (size_t) (at - payload)) != 0) {
        die("no room for an order in a session's output buffer");   /* its window bounds it: never */
    }
    s->in_flight++;
    in_flight_total++;
    if (recorded) {
        sent_rec++;
    } else {
        sent_warm++;
    }
}

static void start_cpu(void) {
    if (!cpu_started) {
        getrusage(RUSAGE_SELF, &cpu_at_start);
        cpu_started = 1;
    }
}

/* rate mode: every due order that has a session with room; window mode: an order for every free slot, until the end */
static void send_due(void) {
    while (ring_count > 0) {
        uint64_t n;
        int64_t due;
        int recorded;
        const int64_t now = now_ns();
        if (rate_mode) {
            if (next_to_send >= released) {
                return;
            }
            n = next_to_send++;
            due = due_ns(n);
            recorded = n >= warmup_total;
            if (recorded) {
                record_ns(&lateness, now - due);
            }
        } else {
            if (now >= end_time) {
                return;
            }
            n = next_to_send++;
            due = now;
            recorded = now >= warm_end;
        }
        struct session *s = take();
        place(s, n, due, recorded);
        offer(s);   /* back at the end of the ring when it has room left */
    }
}

static void flush_dirty(void) {
    for (long i = 0; i < dirty_count; i++) {
        struct session *s = &sessions[dirty_list[i]];
        s->dirty = 0;
        if (flush_out(s) != 0) {
            reopen(s, strerror(errno));
        }
    }
    dirty_count = 0;
}

/* ---- server messages: the top level of a JSON object, scanned in place ---- */

struct span {
    const char *at;   /* NULL: absent */
    size_t length;    /* the value as written: a string with its quotes */
};

static const char *skip_space(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) {
        p++;
    }
    return p;
}

/* p at a string's opening quote: the character after its closing quote, or NULL */
static const char *skip_string(const char *p, const char *end) {
    for (p++; p < end; p++) {
        if (*p == '\\') {
            p++;
        } else if (*p == '"') {
            return p + 1;
        }
    }
    return NULL;
}

static const char *skip_value(const char *p, const char *end) {
    if (p >= end) {
        return NULL;
    }
    if (*p == '"') {
        return skip_string(p, end);
    }
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (p < end) {
            if (*p == '"') {
                p = skip_string(p, end);
                if (p == NULL) {
                    return NULL;
                }
                continue;
            }
            if (*p == '{' || *p == '[') {
                depth++;
            } else if (*p == '}' || *p == ']') {
                if (--depth == 0) {
                    return p + 1;
                }
            }
            p++;
        }
        return NULL;
    }
    while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') {
        p++;
    }
    return p;
}

/* fills values[k] with the value of the top-level field names[k] of the object in [p, end); 0 when malformed */
static int scan_object(const char *p, const char *end, const char *const *names, struct span *values, int count) {
    for (int k = 0; k < count; k++) {
        values[k].at = NULL;
    }
    p = skip_space(p, end);
    if (p >= end || *p != '{') {
        return 0;
    }
    p = skip_space(p + 1, end);
    if (p < end && *p == '}') {
        return 1;
    }
    for (;;) {
        if (p >= end || *p != '"') {
            return 0;
        }
        const char *name = p + 1;
        p = skip_string(p, end);
        if (p == NULL) {
            return 0;
        }
        const size_t name_length = (size_t) (p - 1 - name);
        p = skip_space(p, end);
        if (p >= end || *p != ':') {
            return 0;
        }
        p = skip_space(p + 1, end);
        const char *value = p;
        p = skip_value(p, end);
        if (p == NULL || p == value) {
            return 0;
        }
        for (int k = 0; k < count; k++) {
            if (strlen(names[k]) == name_length && memcmp(names[k], name, name_length) == 0) {
                values[k].at = value;
                values[k].length = (size_t) (p - value);
            }
        }
        p = skip_space(p, end);
        if (p < end && *p == ',') {
            p = skip_space(p + 1, end);
            continue;
        }
        return p < end && *p == '}';
    }
}

static int span_is(struct span v, const char *quoted) {
    return v.at != NULL && v.length == strlen(quoted) && memcmp(v.at, quoted, v.length) == 0;
}

/* counts the error code of an error object (its "code"), or "(none)" */
static void count_code(struct span error) {
    static const char *const names[] = {"code"};
    struct span code = {NULL, 0};
    const char *text = "(none)";
    size_t length = 6;
    if (error.at != NULL && scan_object(error.at, error.at + error.length, names, &code, 1) && code.at != NULL
            && code.length >= 2 && *code.at == '"') {
        text = code.at + 1;
        length = code.length - 2;
    }
    if (length >= CODE_CAP) {
        length = CODE_CAP - 1;
    }
    for (int i = 0; i < MAX_CODES; i++) {
        if (codes[i].count == 0) {
            memcpy(codes[i].code, text, length);
            codes[i].code[length] = '\0';
        }
        if (strlen(codes[i].code) == length && memcmp(codes[i].code, text, length) == 0) {
            codes[i].count++;
            return;
        }
    }
    codes_other++;
}

static void answered(struct session *s, struct slot *slot, int status, int64_t at) {
    const int ok = status >= 200 && status < 300;
    last_answer = at;
    if (slot->recorded) {
        record_ns(&latency, at - slot->due);
        answered_rec++;
        non2xx_rec += !ok;
    } else {
        answered_warm++;
        non2xx_warm += !ok;
    }
    status_counts[status >= 100 && status < MAX_STATUS ? status : 0]++;
    finished++;
    release_slot(s, slot);
}

/* the slot of the order a result's id names, if it is in flight on s */
static struct slot *slot_of(struct session *s, struct span id) {
    if (id.at == NULL || id.length < 5 || id.at[0] != '"' || id.at[id.length - 1] != '"') {
        return NULL;
    }
    uint64_t n = 0, index = 0;
    const char *p = id.at + 1, *end = id.at + id.length - 1;
    const char *digits = p;
    while (p < end && *p >= '0' && *p <= '9') {
        n = n * 10 + (uint64_t) (*p++ - '0');
    }
    if (p == digits || p >= end || *p++ != '.') {
        return NULL;
    }
    digits = p;
    while (p < end && *p >= '0' && *p <= '9') {
        index = index * 10 + (uint64_t) (*p++ - '0');
    }
    if (p == digits || p != end || index >= (uint64_t) window) {
        return NULL;
    }
    struct slot *slot = &s->slots[index];
    return slot->busy && slot->order == n ? slot : NULL;
}

static void on_message(struct session *s, const char *text, size_t length) {
    static const char *const names[] = {"op", "id", "status", "order", "error", "type"};
    enum { OP, ID, STATUS, ORDER, ERROR, TYPE, FIELDS };
    struct span v[FIELDS];
    if (!scan_object(text, text + length, names, v, FIELDS)) {
        fprintf(stderr, "wsload: a server message that is not a JSON object, ignored: %.*s\n",
                (int) (length < 200 ? length : 200), text);
        return;
    }
    if (span_is(v[OP], "\"result\"") && span_is(v[ID], "\"login\"")) {
        if (span_is(v[STATUS], "200")) {
            logins++;
        } else {
            count_code(v[ERROR]);
            fprintf(stderr, "wsload: session %ld's login was refused: %.*s\n", (long) (s - sessions),
                    (int) (length < 300 ? length : 300), text);
        }
        return;
    }
    if (span_is(v[OP], "\"result\"")) {
        struct slot *slot = slot_of(s, v[ID]);
        if (slot == NULL) {
            if (unmatched++ < 10) {
                fprintf(stderr, "wsload: a result for no order in flight on its session, ignored: %.*s\n",
                        (int) (length < 200 ? length : 200), text);
            }
            return;
        }
        int status = 0;
        if (v[STATUS].at != NULL) {
            for (size_t i = 0; i < v[STATUS].length && v[STATUS].at[i] >= '0' && v[STATUS].at[i] <= '9'; i++) {
                status = status * 10 + (v[STATUS].at[i] - '0');
            }
        }
        if (status == 201) {
            static const char *const order_names[] = {"clientOrderId"};
            struct span cid;
            if (v[ORDER].at != NULL && scan_object(v[ORDER].at, v[ORDER].at + v[ORDER].length, order_names, &cid, 1)
                    && cid.at != NULL && cid.length == slot->cid_len + 2
                    && memcmp(cid.at + 1, slot->cid, slot->cid_len) == 0) {
                if (ack_file != NULL) {
                    fwrite(slot->cid, 1, slot->cid_len, ack_file);
                    fputc('\n', ack_file);
                    acks_written++;
                }
            } else if (mismatched++ < 10) {
                fprintf(stderr, "wsload: a 201 for %.*s whose order names another clientOrderId: %.*s\n",
                        (int) slot->cid_len, slot->cid, (int) (length < 300 ? length : 300), text);
            }
        } else if (status < 200 || status > 299) {
            count_code(v[ERROR]);
        }
        answered(s, slot, status, now_ns());
        return;
    }
    if (v[OP].at == NULL && span_is(v[TYPE], "\"error\"")) {
        /* the answer to a message the stream could not take (over the connection's budget, or unreadable): it names
           no request, and a message dropped for the budget is never answered, so its order stays in flight */
        count_code(v[ERROR]);
        if (error_frames++ < 10) {
            fprintf(stderr, "wsload: session %ld: an error with no request id: %.*s\n", (long) (s - sessions),
                    (int) (length < 300 ? length : 300), text);
        }
    }
    /* anything else (a heartbeat, a channel's message) is not an answer */
}

/* ---- server frames, parsed in place ---- */

/* answers a close frame (best effort) and reconnects */
static void on_close(struct session *s, const unsigned char *payload, size_t length) {
    char why[160];
    const int code = length >= 2 ? payload[0] << 8 | payload[1] : 1005;
    snprintf(why, sizeof why, "the server closed the stream, %d%s%.*s", code, length > 2 ? ": " : "",
             (int) (length > 2 ? (length - 2 < 100 ? length - 2 : 100) : 0), (const char *) payload + 2);
    /* the status echoed (1005, none given: an empty close), masked with a mask of zeros */
    const unsigned char reply[] = {0x80 | OP_CLOSE, 0x80 | (code == 1005 ? 0 : 2), 0, 0, 0, 0,
                                   (unsigned char) (code >> 8), (unsigned char) code};
    if (send(s->fd, reply, code == 1005 ? 6 : sizeof reply, MSG_NOSIGNAL) < 0) {
        /* closing anyway */
    }
    reopen(s, why);
}

/* parses the frames in s's input; returns -1 when s was reopened (its input is gone) */
static int parse_frames(struct session *s) {
    const unsigned char *buf = (const unsigned char *) s->in;
    size_t at = 0;
    while (at < s->in_len) {
        if (s->skip > 0) {
            const size_t left = s->in_len - at;
            const size_t drop = s->skip < left ? (size_t) s->skip : left;
            at += drop;
            s->skip -= drop;
            continue;
        }
        const unsigned char *p = buf + at;
        const size_t available = s->in_len - at;
        if (available < 2) {
            break;
        }
        const int fin = p[0] & 0x80;
        const int opcode = p[0] & 0x0F;
        size_t head = 2;
        uint64_t length = p[1] & 0x7F;
        if ((p[0] & 0x70) != 0 || (p[1] & 0x80) != 0) {
            reopen(s, (p[0] & 0x70) != 0 ? "a frame with RSV bits, though no extension was negotiated"
                                         : "a masked frame from the server");
            return -1;
        }
        if (length == 126) {
            if (available < 4) {
                break;
            }
            length = (uint64_t) p[2] << 8 | p[3];
            head = 4;
        } else if (length == 127) {
            if (available < 10) {
                break;
            }
            length = 0;
            for (int i = 2; i < 10; i++) {
                length = length << 8 | p[i];
            }
            head = 10;
            if (length >> 63) {
                reopen(s, "a frame length over 2^63");
                return -1;
            }
        }
        if (opcode >= 0x8 && (length > 125 || !fin)) {
            reopen(s, "a control frame over 125 bytes or fragmented");
            return -1;
        }
        const int data = opcode == OP_TEXT || opcode == OP_BINARY || opcode == OP_CONTINUATION;
        if (!data && opcode < 0x8) {
            reopen(s, "a frame of an unknown type");
            return -1;
        }
        if (data && (length > IN_CAP - head || !fin || opcode == OP_CONTINUATION || opcode == OP_BINARY
                     || s->in_fragment)) {
            /* too big to read, a fragment, or binary: not an answer this generator can read */
            if (opcode != OP_CONTINUATION) {
                skipped_messages++;
                s->in_fragment = !fin;
            } else {
                s->in_fragment = s->in_fragment && !fin;
            }
            at += head;
            s->skip = length;
            continue;
        }
        if (available < head + length) {
            break;
        }
        const unsigned char *payload = p + head;
        at += head + (size_t) length;
        if (opcode == OP_TEXT) {
            on_message(s, (const char *) payload, (size_t) length);
        } else if (opcode == OP_PING) {
            pings++;
            if (put_frame(s, OP_PONG, (const char *) payload, (size_t) length) != 0) {
                pongs_dropped++;
            }
        } else if (opcode == OP_CLOSE) {
            on_close(s, payload, (size_t) length);
            return -1;
        }
        /* a pong: nothing to do */
    }
    s->in_len -= at;
    if (s->in_len > 0 && at > 0) {
        memmove(s->in, s->in + at, s->in_len);
    }
    return 0;
}

static void on_readable(struct session *s) {
    for (;;) {
        const ssize_t n = recv(s->fd, s->in + s->in_len, IN_CAP - s->in_len, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        }
        if (n <= 0) {
            reopen(s, n == 0 ? "the server ended the connection" : strerror(errno));
            return;
        }
        const int filled = s->in_len + (size_t) n == IN_CAP;
        s->in_len += (size_t) n;
        if (parse_frames(s) != 0 || !filled) {
            return;   /* the socket had no more: epoll (level-triggered) reports what comes next, a close included */
        }
    }
}

/* ---- set-up and the loop ---- */

static void read_secrets(const char *path) {
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        fprintf(stderr, "wsload: cannot read the keys file %s: %s\n", path, strerror(errno));
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
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r' || line[length - 1] == ' '
                              || line[length - 1] == '\t')) {
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
        fprintf(stderr, "wsload: cannot read the keys file %s: %s\n", path, strerror(errno));
        exit(2);
    }
    fclose(file);
    if (secret_count == 0) {
        fprintf(stderr, "wsload: the keys file %s holds no secret\n", path);
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
        fprintf(stderr, "wsload: no epoll_pwait2 in this kernel: orders may leave up to 1 ms after they are due"
                        " (they are timed from when they were due all the same)\n");
    }
    return epoll_wait(epoll_fd, events, capacity, (int) ((left + 999999) / 1000000));
}

static double seconds_of(struct timeval tv) {
    return (double) tv.tv_sec + (double) tv.tv_usec / 1e6;
}

static void parse_mode(const char *text) {
    if (strncmp(text, "rate=", 5) == 0) {
        rate_mode = 1;
        rate = parse_long(text + 5, "the rate (MODE rate=N)", 1, 10000000);
        const char *w = getenv("WSLOAD_WINDOW");
        window = w != NULL && *w != '\0' ? parse_long(w, "WSLOAD_WINDOW", 1, MAX_WINDOW) : 1;
    } else if (strncmp(text, "window=", 7) == 0) {
        rate_mode = 0;
        rate = 0;
        window = parse_long(text + 7, "the window (MODE window=W)", 1, MAX_WINDOW);
    } else {
        fprintf(stderr, "wsload: MODE must be rate=N (orders a second) or window=W (orders in flight per session),"
                        " not \"%s\"\n", text);
        exit(2);
    }
}

int main(int argc, char **argv) {
    if (argc < 7 || argc > 9) {
        fprintf(stderr, "usage: %s HOST PORT rate=N|window=W SECONDS WARMUP_SECONDS SESSIONS [KEYS_FILE] [ACK_FILE]\n"
                        "  (KEYS_FILE may be \"\" or - for no keys; WSLOAD_WINDOW: orders in flight per session in"
                        " rate mode, default 1)\n", argv[0]);
        return 2;
    }
    host = argv[1];
    port = argv[2];
    parse_long(port, "PORT", 1, 65535);
    parse_mode(argv[3]);
    seconds = parse_long(argv[4], "SECONDS", 1, 86400);
    warmup_seconds = parse_long(argv[5], "WARMUP_SECONDS", 0, 86400);
    session_count = parse_long(argv[6], "SESSIONS", 1, MAX_SESSIONS);
    if (argc >= 8 && argv[7][0] != '\0' && strcmp(argv[7], "-") != 0) {
        read_secrets(argv[7]);
    }
    if (argc == 9) {
        ack_file = fopen(argv[8], "w");
        if (ack_file == NULL) {
            fprintf(stderr, "wsload: cannot write the ack file %s: %s\n", argv[8], strerror(errno));
            return 2;
        }
        static char ack_buffer[1 << 20];
        setvbuf(ack_file, ack_buffer, _IOFBF, sizeof ack_buffer);
    }
    const struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    const int resolved = getaddrinfo(host, port, &hints, &address);
    if (resolved != 0) {
        fprintf(stderr, "wsload: cannot resolve %s: %s\n", host, gai_strerror(resolved));
        return 2;
    }
    const int host_len = snprintf(host_header, sizeof host_header, "Host: %s:%s\r\n", host, port);
    if (host_len < 0 || (size_t) host_len >= sizeof host_header) {
        die("HOST is too long");
    }
    host_header_len = (size_t) host_len;
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    const char *given_run = getenv("WSLOAD_RUN_ID");
    if (given_run != NULL && *given_run != '\0') {
        if (strlen(given_run) > 20 || strspn(given_run, "abcdefghijklmnopqrstuvwxyz0123456789") != strlen(given_run)) {
            die("WSLOAD_RUN_ID must be 1-20 of [a-z0-9] (it goes into every clientOrderId)");
        }
        strcpy(run_id, given_run);
    } else {   /* the start in milliseconds, in base 36, as fixedrate makes it */
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
    }
    prng_state = seed_of((uint64_t) wall.tv_nsec);   /* the orders differ from run to run, as their ids do */

    /* as fixedrate: the default 50 us timer slack would let orders leave up to 50 us late */
    if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) != 0) {
        fprintf(stderr, "wsload: cannot set the timer slack to 1 ns: %s\n", strerror(errno));
    }
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd < 0) {
        die("cannot create the epoll set");
    }
    size_t out_cap = (size_t) window * FRAME_CAP + CONTROL_CAP;
    if (out_cap < HANDSHAKE_CAP + MAX_KEY + host_header_len) {
        out_cap = HANDSHAKE_CAP + MAX_KEY + host_header_len;
    }
    sessions = calloc((size_t) session_count, sizeof *sessions);
    ring = calloc((size_t) session_count, sizeof *ring);
    dirty_list = calloc((size_t) session_count, sizeof *dirty_list);
    struct epoll_event *events = calloc((size_t) session_count, sizeof *events);
    if (sessions == NULL || ring == NULL || dirty_list == NULL || events == NULL) {
        die("out of memory");
    }
    for (long i = 0; i < session_count; i++) {
        struct session *s = &sessions[i];
        s->out_cap = out_cap;
        s->out = malloc(out_cap);
        s->in = malloc(IN_CAP);
        s->slots = calloc((size_t) window, sizeof *s->slots);
        s->free_slots = calloc((size_t) window, sizeof *s->free_slots);
        if (s->out == NULL || s->in == NULL || s->slots == NULL || s->free_slots == NULL) {
            die("out of memory");
        }
        s->key = secret_count > 0 ? (int) (i % secret_count) : -1;
        open_session(s, "connect to");
        offer(s);
    }

    t0 = now_ns() + (rate_mode ? 1000000 : 0);   /* rate mode: the first order is due 1 ms from now */
    warm_end = t0 + (int64_t) warmup_seconds * 1000000000LL;
    end_time = warm_end + (int64_t) seconds * 1000000000LL;
    int64_t give_up = end_time + DRAIN_NS;
    if (rate_mode) {
        warmup_total = (uint64_t) rate * (uint64_t) warmup_seconds;
        total = warmup_total + (uint64_t) rate * (uint64_t) seconds;
        give_up = due_ns(total - 1) + DRAIN_NS;
    }
    int incomplete = 0;
    for (;;) {
        const int64_t now = now_ns();
        if (rate_mode) {
            while (released < total && due_ns(released) <= now) {
                released++;
            }
            if (released > warmup_total) {
                start_cpu();
            }
        } else if (now >= warm_end) {
            start_cpu();
        }
        send_due();
        flush_dirty();
        if (rate_mode ? finished >= total : now >= end_time && in_flight_total == 0) {
            break;
        }
        /* an error with no request id says the stream dropped messages unread (over the connection's budget): once
           answers stop coming after the end, those orders never will be */
        const int64_t last_due = rate_mode ? due_ns(total - 1) : end_time;
        if (now > give_up || (error_frames > 0 && now > last_due + STALL_NS && now > last_answer + STALL_NS)) {
            incomplete = 1;
            break;
        }
        /* in rate mode with every session full, only an answer can let an order go: no wake-up at due times */
        int64_t wake = rate_mode ? (released < total && ring_count > 0 ? due_ns(released) : give_up)
                                 : (now < warm_end ? warm_end : now < end_time ? end_time : give_up);
        if (error_frames > 0 && wake > now + 1000000000LL) {
            wake = now + 1000000000LL;   /* to see the stall */
        }
        const int ready = wait_until(events, (int) session_count, wake);
        if (ready < 0) {
            if (errno == EINTR) {
                continue;
            }
            die("epoll_wait failed");
        }
        for (int e = 0; e < ready; e++) {
            struct session *s = &sessions[events[e].data.u32];
            if ((events[e].events & EPOLLOUT) && s->want_out && flush_out(s) != 0) {
                reopen(s, strerror(errno));
                continue;
            }
            if (events[e].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
                on_readable(s);
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
    /* still unanswered at the give-up time (0 when the run completed); in rate mode also the orders never sent */
    uint64_t missing_rec = 0, missing_warm = 0;
    for (long i = 0; i < session_count; i++) {
        for (long k = 0; k < window; k++) {
            if (sessions[i].slots[k].busy) {
                if (sessions[i].slots[k].recorded) {
                    missing_rec++;
                } else {
                    missing_warm++;
                }
            }
        }
    }
    if (rate_mode && next_to_send < total) {
        const uint64_t unsent_warm = next_to_send < warmup_total ? warmup_total - next_to_send : 0;
        missing_warm += unsent_warm;
        missing_rec += total - next_to_send - unsent_warm;
    }
    errors_rec += missing_rec;
    errors_warm += missing_warm;
    if (ack_file != NULL && (fflush(ack_file) != 0 || ferror(ack_file) || fclose(ack_file) != 0)) {
        fprintf(stderr, "wsload: cannot write the ack file %s: %s\n", argv[8], strerror(errno));
        return 2;
    }
    const double per_order = sent_rec > 0 ? (user + sys) * 1e6 / (double) sent_rec : 0.0;
    const double per_second = (double) answered_rec / (double) seconds;
    printf("wsload mode=%s rate=%ld window=%ld seconds=%ld sessions=%ld sent=%llu answered=%llu non2xx=%llu"
           " errors=%llu orders_per_s=%.0f p50_us=%llu p90_us=%llu p99_us=%llu p999_us=%llu max_us=%llu"
           " cpu_user_s=%.3f cpu_sys_s=%.3f cpu_us_per_order=%.2f\n",
           rate_mode ? "rate" : "window", rate, window, seconds, session_count, (unsigned long long) sent_rec,
           (unsigned long long) answered_rec, (unsigned long long) non2xx_rec, (unsigned long long) errors_rec,
           per_second, (unsigned long long) percentile_us(&latency, 50),
           (unsigned long long) percentile_us(&latency, 90), (unsigned long long) percentile_us(&latency, 99),
           (unsigned long long) percentile_us(&latency, 99.9), (unsigned long long) latency.max_us, user, sys,
           per_order);
    fflush(stdout);

    char mode_text[96];
    if (rate_mode) {
        snprintf(mode_text, sizeof mode_text, "%ld orders/s, window %ld", rate, window);
    } else {
        snprintf(mode_text, sizeof mode_text, "closed loop, window %ld", window);
    }
    char status_text[512] = "";
    size_t used = 0;
    for (int st = 0; st < MAX_STATUS && used < sizeof status_text - 32; st++) {
        if (status_counts[st] > 0) {
            used += (size_t) snprintf(status_text + used, sizeof status_text - used, "%s%s%d: %llu",
                                      used > 0 ? ", " : "", st == 0 ? "other " : "", st,
                                      (unsigned long long) status_counts[st]);
        }
    }
    char code_text[1024] = "";
    used = 0;
    for (int i = 0; i < MAX_CODES && codes[i].count > 0 && used < sizeof code_text - 64; i++) {
        used += (size_t) snprintf(code_text + used, sizeof code_text - used, "%s%s %llu", used > 0 ? ", " : "",
                                  codes[i].code, (unsigned long long) codes[i].count);
    }
    if (codes_other > 0 && used < sizeof code_text - 32) {
        snprintf(code_text + used, sizeof code_text - used, ", others %llu", (unsigned long long) codes_other);
    }
    fprintf(stderr, "wsload: %s for %ld s after %ld s warm-up, %ld sessions to %s:%s%s: %llu sent, %llu answered"
                    " (%llu non-2xx), %llu errors, %.0f orders/s; latency from the %s p50 %llu us, p99 %llu us,"
                    " p99.9 %llu us, max %llu us",
            mode_text, seconds, warmup_seconds, session_count, host, port,
            secret_count > 0 ? " with keys" : " without keys", (unsigned long long) sent_rec,
            (unsigned long long) answered_rec, (unsigned long long) non2xx_rec, (unsigned long long) errors_rec,
            per_second, rate_mode ? "due time" : "send", (unsigned long long) percentile_us(&latency, 50),
            (unsigned long long) percentile_us(&latency, 99), (unsigned long long) percentile_us(&latency, 99.9),
            (unsigned long long) latency.max_us);
    if (rate_mode) {
        fprintf(stderr, "; sent after the due time (waking up, or waiting for a session with room; part of that"
                        " latency) p50 %llu us, p99 %llu us, p99.9 %llu us, max %llu us",
                (unsigned long long) percentile_us(&lateness, 50), (unsigned long long) percentile_us(&lateness, 99),
                (unsigned long long) percentile_us(&lateness, 99.9), (unsigned long long) lateness.max_us);
    }
    fprintf(stderr, "; own CPU %.2f us/order (%.1f%% of a core); warm-up: %llu sent, %llu answered (%llu non-2xx),"
                    " %llu errors\n",
            per_order, (user + sys) * 100.0 / (double) seconds, (unsigned long long) sent_warm,
            (unsigned long long) answered_warm, (unsigned long long) non2xx_warm, (unsigned long long) errors_warm);
    fprintf(stderr, "wsload: answers by status (whole run): %s; error codes: %s; %llu errors with no request id,"
                    " %llu results for no order in flight, %llu 201s naming another clientOrderId, %llu messages"
                    " skipped (too big, fragmented or binary), %llu pings answered (%llu pongs dropped),"
                    " %llu sessions reconnected, %llu logins answered 200%s%llu acks written\n",
            status_text[0] != '\0' ? status_text : "none", code_text[0] != '\0' ? code_text : "none",
            (unsigned long long) error_frames, (unsigned long long) unmatched, (unsigned long long) mismatched,
            (unsigned long long) skipped_messages, (unsigned long long) pings, (unsigned long long) pongs_dropped,
            (unsigned long long) reopened, (unsigned long long) logins, "; ", (unsigned long long) acks_written);
    if (incomplete) {
        if (error_frames > 0) {
            fprintf(stderr, "wsload: %llu orders unanswered (or unsent) 5 s after the %s and the last answer: the"
                            " stream dropped messages unread (%llu errors with no request id; RATE_LIMITED: over the"
                            " connection's budget, which is the key's ORDERS_RATE_LIMIT_REQUESTS_PER_SECOND once it"
                            " logged in, else ORDERS_WS_MAX_REQUESTS_PER_SECOND)\n",
                    (unsigned long long) (missing_rec + missing_warm), rate_mode ? "last was due" : "end",
                    (unsigned long long) error_frames);
        } else {
            fprintf(stderr, "wsload: %llu orders still unanswered (or unsent) 60 s after the %s\n",
                    (unsigned long long) (missing_rec + missing_warm), rate_mode ? "last was due" : "end");
        }
        return 3;
    }
    return 0;
}
