/*
 * wasip2.h — internals of the WASI 0.2 hosts (src/wasip2/): the per-
 * instance state, its tables of host objects, the rows witgen.py writes,
 * and the helpers every package file shares. The API the component linker
 * calls is wp2.h.
 *
 * The hosts sit on the preview1 layer (src/wasi/, docs/wasi.md) and add no
 * file layer of their own: an instance state owns a weft_wasi made from the
 * same weft_wasi_config; a wasi:filesystem descriptor is a preview1 fd of
 * it, and every path operation is the preview1 function itself (fs.c's
 * path_*, fd.c's fd_*), called with its arguments in a scratch memory of
 * the host (wp2_p1_call); streams read and write the host descriptor of a
 * counted preview1 fd reference (wasi_fd_acquire); every wait goes through
 * wasi_block_on, the blocker a scheduler replaces to park the agent.
 *
 * Thread safety: a state serves one component instance, which one agent
 * runs at a time; the host functions of one state are never called at
 * once (the preview1 context below keeps its own lock).
 */
#ifndef WEFT_WASIP2_H
#define WEFT_WASIP2_H

#include "../wasi/wasi.h"
#include "wit_types.h"
#include "wp2.h"

/* ---- The rows witgen.py writes (wit_types.c) ---- */

/* A type reference: a node (>= 0), a primitive (WP2_P(kind)), or none. */
typedef int32_t wp2_tref;
#define WP2_NONE INT32_MIN
#define WP2_P(kind) (-1 - (int32_t)(kind))
#define WP2_T(i) ((int32_t)(i))

typedef struct wp2_node_desc {
    cm_kind kind;
    uint32_t n, first;      /* fields (record, variant, enum, flags) or members (tuple) */
    wp2_tref elem, elem2;
    int32_t res;            /* own, borrow: WP2_RES_*; else -1 */
    uint32_t size, align, flat;
} wp2_node_desc;

typedef struct wp2_field_desc {
    const char *name;
    wp2_tref type;
} wp2_field_desc;

typedef struct wp2_functype_desc {
    uint32_t first_param, nparams;
    wp2_tref result;
} wp2_functype_desc;

typedef struct wp2_func_desc {
    const char *name;
    uint32_t functype;
    cm_host_fn fn;
} wp2_func_desc;

typedef struct wp2_hres_desc {
    const char *name;
    uint32_t res;
} wp2_hres_desc;

typedef struct wp2_instance_desc {
    const char *name;
    uint32_t first_func, nfuncs, first_res, nres, first_type, ntypes;
} wp2_instance_desc;

typedef struct wp2_resource_desc {
    const char *name;
    weft_status (*dtor)(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
} wp2_resource_desc;

extern const wp2_resource_desc wp2_resource_descs[WP2_RES_COUNT];
extern const wp2_node_desc wp2_node_descs[WP2_NNODES];
extern const wp2_field_desc wp2_field_descs[WP2_NFIELDS];
extern const wp2_tref wp2_member_descs[WP2_NMEMBERS];
extern const wp2_functype_desc wp2_functype_descs[WP2_NFUNCTYPES];
extern const wp2_func_desc wp2_func_descs[WP2_NFUNCS];
extern const wp2_hres_desc wp2_hres_descs[WP2_NHRES];
extern const wp2_field_desc wp2_type_descs[WP2_NTYPES];
extern const wp2_instance_desc wp2_instance_descs[WP2_NINSTANCES];

/* ---- Host objects ---- */

/* The objects of one resource type, indexed by rep - 1 (rep 0 is never
   given, so a zeroed handle is caught); a dropped object's rep is given
   again, lowest first. */
typedef struct wp2_table {
    void **objs;
    uint32_t cap;
} wp2_table;

/* wasi:io/error: what failed, for to-debug-string and
   filesystem-error-code. */
typedef struct wp2_error {
    wasi_errno code;        /* the preview1 errno of the failure */
    char what[96];          /* "read", "write", ... */
} wp2_error;

/* wasi:io/poll pollable. */
enum { WP2_POLL_READY, WP2_POLL_CLOCK, WP2_POLL_FD };
typedef struct wp2_pollable {
    int kind;
    int64_t deadline;       /* CLOCK: monotonic ns as wasi_clock_now tells it */
    int host;               /* FD: the parent stream's host descriptor */
    short events;           /* FD: POLLIN or POLLOUT */
    int parent_res;         /* the stream it is a child of (WP2_RES_*), or -1 */
    uint32_t parent_rep;
} wp2_pollable;

/* wasi:io/streams input-stream and output-stream: a counted preview1 fd
   reference (the host descriptor stays open while the stream lives, even
   when the descriptor it came from is dropped). */
typedef struct wp2_stream {
    wasi_ref ref;
    bool file;              /* a regular file: positioned reads and writes at pos */
    bool append;            /* append-via-stream: each write at the end */
    uint64_t pos;
    bool closed;            /* end of stream seen, or the peer closed */
    uint64_t permit;        /* output: bytes the last check-write allowed */
    uint32_t children;      /* live pollables made by subscribe */
} wp2_stream;

/* wasi:cli terminal-input / terminal-output: which stdio descriptor. */
typedef struct wp2_terminal {
    int which;
} wp2_terminal;

/* wasi:filesystem descriptor: a preview1 fd of the state's context. */
typedef struct wp2_descriptor {
    uint32_t fd;
    uint32_t flags;         /* descriptor-flags it was opened with */
    bool owned;             /* closed on drop (a preopen's descriptor is not) */
} wp2_descriptor;

/* wasi:filesystem directory-entry-stream: a preview1 fd of its own (a new
   open of the directory, so its position is its own) and the cookie of
   the next entry. */
typedef struct wp2_dir_stream {
    uint32_t fd;
    uint64_t cookie;
} wp2_dir_stream;

struct wp2_ctx {
    weft_wasi *w;                      /* the preview1 context (owned) */
    cm_resource res[WP2_RES_COUNT];    /* this state's resource types */
    wp2_table tab[WP2_RES_COUNT];
    uint64_t insecure_seed[2];         /* one value per state (random.wit) */
    uint64_t hash_key[2];              /* metadata-hash's key */
    uint64_t udp_ids;                  /* the last wp2_udp.id given */
    /* the type trees and instances built from the rows above */
    cm_valtype nodes[WP2_NNODES];
    cm_field fields[WP2_NFIELDS];
    const cm_valtype *members[WP2_NMEMBERS];
    cm_functype functypes[WP2_NFUNCTYPES];
    cm_host_func funcs[WP2_NFUNCS];
    cm_host_resource hres[WP2_NHRES];
    cm_field types[WP2_NTYPES];
    cm_host_instance instances[WP2_NINSTANCES];
};

/* ---- ctx.c: helpers the package files share ---- */

#define WP2_INTERNAL __attribute__((visibility("hidden")))

static inline wp2_ctx *wp2_of(const cm_host_call *call) { return (wp2_ctx *)call->ctx; }

/* Adds `obj` (malloc'd) to table `res`: its rep, or 0 when out of memory
   (obj is then freed). */
WP2_INTERNAL uint32_t wp2_add(wp2_ctx *x, int res, void *obj);
/* The live object of `rep`, or NULL. */
WP2_INTERNAL void *wp2_get(wp2_ctx *x, int res, uint32_t rep);
/* Removes and returns the object of `rep` (NULL if none). */
WP2_INTERNAL void *wp2_remove(wp2_ctx *x, int res, uint32_t rep);

/* Fills buf with random bytes: the process's hook (deterministic mode)
   or the host's getrandom; false when the host's source fails. */
WP2_INTERNAL bool wp2_fill_random(weft_wasi *w, void *buf, size_t len);

/* Fills err and returns WEFT_ERR_TRAP: the call traps its caller. */
WP2_INTERNAL weft_status wp2_trap(weft_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The trap for a rep that names no live object (the canonical ABI checks
   handles, so only a broken caller gets it). */
WP2_INTERNAL weft_status wp2_bad_rep(weft_error *err, const char *what, uint32_t rep);
/* The trap for an arena allocation that failed. */
WP2_INTERNAL weft_status wp2_nomem(weft_error *err, const char *what);

/* A preview1 call of this host call (caller, for parking; no memory). */
static inline wasi_call wp2_wcall(const cm_host_call *call) {
    wasi_call c = {.w = wp2_of(call)->w, .caller = call->caller, .status = WEFT_OK};
    return c;
}
/* Calls preview1 function `fn` with `args`, its guest memory being the
   host buffer (mem, size): the way the WASI 0.2 hosts share preview1's
   path and fd code. Returns its errno (WASI_EPARKED: it parked). */
WP2_INTERNAL uint32_t wp2_p1_call(const cm_host_call *call, wasi_impl fn, uint8_t *mem,
                                  uint64_t size, const weft_val *args, uint32_t nargs);

/* Values in the call's arena; NULL when it is full. */
WP2_INTERNAL cm_val *wp2_vals(const cm_host_call *call, uint32_t n);
/* Sets *out to a string of `len` bytes copied into the arena; false when full. */
WP2_INTERNAL bool wp2_set_str(const cm_host_call *call, cm_val *out, const char *s, size_t len);
/* Sets *out to a list<u8> of `len` bytes (copied); false when full. */
WP2_INTERNAL bool wp2_set_bytes(const cm_host_call *call, cm_val *out, const uint8_t *b, size_t len);
/* The bytes of a list<u8> value, copied into `buf` (len = v->n). */
WP2_INTERNAL void wp2_get_bytes(const cm_val *v, uint8_t *buf);
/* Sets *out to a variant-like value: kind, case, payload (may be NULL). */
static inline void wp2_set_case(cm_val *out, cm_kind kind, uint32_t index, cm_val *payload) {
    out->kind = kind;
    out->n = 0;
    out->v.c.index = index;
    out->v.c.payload = payload;
}
static inline void wp2_set_u64(cm_val *out, uint64_t v) {
    out->kind = CM_U64;
    out->n = 0;
    out->v.u = v;
}
static inline void wp2_set_handle(cm_val *out, cm_kind kind, uint32_t rep) {
    out->kind = kind;
    out->n = 0;
    out->v.rep = rep;
}
/* result<_, E> ok / result<T, E> ok with payload. */
static inline void wp2_set_ok(cm_val *out, cm_val *payload) { wp2_set_case(out, CM_RESULT, 0, payload); }
WP2_INTERNAL bool wp2_set_err(const cm_host_call *call, cm_val *out, cm_kind kind, uint32_t index);

/* ---- io.c: streams and pollables the other packages make ---- */

/* A new stream (WP2_RES_IO_INPUT_STREAM or _OUTPUT_STREAM) on preview1 fd
   `fd` (WP2_NO_FD: a stream closed from the start): its rep, or 0 with *e
   set (EBADF when fd is not open, ENOMEM). */
#define WP2_NO_FD UINT32_MAX
WP2_INTERNAL uint32_t wp2_stream_new(wp2_ctx *x, int res, uint32_t fd, bool file, bool append,
                                     uint64_t pos, wasi_errno *e);
/* A new pollable; 0 when out of memory. */
WP2_INTERNAL uint32_t wp2_pollable_new(wp2_ctx *x, const wp2_pollable *p);
/* A new wasi:io/error for errno `code` from operation `what`; 0 when out
   of memory. */
WP2_INTERNAL uint32_t wp2_error_new(wp2_ctx *x, wasi_errno code, const char *what);

/* The count of live pollables made by subscribe of object `rep` of type
   `res` (a stream, a socket, a datagram or address stream), or NULL for a
   type that makes none: such a parent traps when dropped before them. */
WP2_INTERNAL uint32_t *wp2_children(wp2_ctx *x, int res, uint32_t rep);

/* ---- sockets.c, sockets_tcp.c, sockets_udp.c: wasi:sockets ---- */

/* wasi:sockets/network network: one capability (weft_wasi_config.net
   says what it reaches). */
typedef struct wp2_network {
    uint32_t unused;
} wp2_network;

/* tcp-socket states (tcp.wit; TcpSocketOperationalSemantics.md). */
enum {
    WP2_TCP_UNBOUND, WP2_TCP_BIND_STARTED, WP2_TCP_BOUND, WP2_TCP_LISTEN_STARTED,
    WP2_TCP_LISTENING, WP2_TCP_CONNECT_STARTED, WP2_TCP_CONNECTED, WP2_TCP_CLOSED
};

/* wasi:sockets/tcp tcp-socket: a preview1 socket fd of the state's
   context (so its streams are wasi:io streams on a counted reference to
   it, as any other), in one of the states above. */
typedef struct wp2_tcp {
    uint32_t fd;            /* the preview1 fd, closed on drop */
    wasi_ref ref;           /* ref.host: the host socket */
    int family;             /* AF_INET, AF_INET6 */
    int state;
    wasi_errno pending;     /* a connect that failed at once: told by finish-connect */
    int backlog;            /* for listen */
    uint32_t children;
} wp2_tcp;

/* wasi:sockets/udp udp-socket. */
typedef struct wp2_udp {
    uint32_t fd;
    wasi_ref ref;
    int family;
    int state;              /* WP2_TCP_UNBOUND, _BIND_STARTED or _BOUND */
    bool connected;         /* the last stream() named a remote address */
    wasi_sockaddr remote;
    uint64_t id;            /* told apart from a later socket given the same rep */
    uint32_t streams;       /* live datagram streams of the last stream() */
    uint32_t children;
} wp2_udp;

/* incoming-datagram-stream / outgoing-datagram-stream: a counted
   reference to the socket's fd, so it works on after the socket's drop. */
typedef struct wp2_dgram {
    wasi_ref ref;
    int family;
    bool connected;
    wasi_sockaddr remote;
    uint32_t sock_rep;      /* its udp-socket, while that is `sock_id` */
    uint64_t sock_id;
    uint64_t permit;        /* outgoing: datagrams the last check-send allowed */
    uint32_t children;
} wp2_dgram;

/* ip-name-lookup resolve-address-stream. */
typedef struct wp2_resolve {
    wasi_lookup *lookup;
    size_t next;            /* the next address to give */
    uint32_t children;
} wp2_resolve;

/* The error-code label for a preview1 errno of a socket call
   (network.wit's POSIX equivalents). */
WP2_INTERNAL uint32_t wp2_net_error(wasi_errno e);
/* result<_, error-code>::err(code) in *result; false when the arena is full. */
WP2_INTERNAL weft_status wp2_net_fail(const cm_host_call *call, cm_val *result, uint32_t code,
                                      const char *what, weft_error *err);
/* An ip-socket-address value to a host address; false (invalid-argument)
   when its shape is not one (the canonical ABI has checked the type). */
WP2_INTERNAL bool wp2_net_addr_in(const cm_val *v, wasi_sockaddr *out);
/* A host address to an ip-socket-address value in the arena. */
WP2_INTERNAL bool wp2_net_addr_out(const cm_host_call *call, const wasi_sockaddr *a, cm_val *out);
/* The WIT's checks of an address for a socket of `family` (tcp.wit,
   udp.wit: the family, a unicast address, no IPv4-mapped or -compatible
   IPv6; `remote`: not the unspecified address, not port 0): the
   error-code label, or UINT32_MAX when it passes. */
#define WP2_NET_OK UINT32_MAX
WP2_INTERNAL uint32_t wp2_net_addr_check(const wasi_sockaddr *a, int family, bool remote);
/* The address family label of AF_INET / AF_INET6, and back (-1: none). */
WP2_INTERNAL int wp2_net_family(uint32_t label);
/* A socket's host fd put in the preview1 table: *fd, or an errno (the
   host socket is closed then). */
WP2_INTERNAL wasi_errno wp2_net_adopt(wp2_ctx *x, int host, bool stream, uint32_t *fd,
                                      wasi_ref *ref);
/* Closes the preview1 fd of a socket (its host socket closes when the
   last stream's reference goes too). */
WP2_INTERNAL void wp2_net_close(wp2_ctx *x, uint32_t fd, wasi_ref *ref);
/* A pollable child of (res, rep): own<pollable> in *result. */
WP2_INTERNAL weft_status wp2_net_subscribe(cm_host_call *call, int res, uint32_t rep, int kind,
                                           int host, short events, cm_val *result,
                                           weft_error *err);
/* The drop of a parent with live pollables traps (as a stream's). */
WP2_INTERNAL weft_status wp2_net_children_trap(weft_error *err, const char *what, uint32_t n);
/* Socket option values the WIT takes and gives (tcp.wit, udp.wit). */
WP2_INTERNAL weft_status wp2_net_buffer_size(cm_host_call *call, int host, bool set, bool rcv,
                                             const cm_val *value, cm_val *result, weft_error *err);
WP2_INTERNAL weft_status wp2_net_hop_limit(cm_host_call *call, int host, int family, bool set,
                                           const cm_val *value, cm_val *result, weft_error *err);
/* ok(value) of result<T, error-code>, T a u64-like kind. */
WP2_INTERNAL weft_status wp2_net_ok_u(cm_host_call *call, cm_val *result, cm_kind kind, uint64_t v,
                                      const char *what, weft_error *err);

/* ---- filesystem.c ---- */

/* The error-code label of a preview1 errno (docs/wasi.md "WASI 0.2"),
   and the label's name ("no-entry"). */
WP2_INTERNAL uint32_t wp2_error_code(wasi_errno e);
WP2_INTERNAL const char *wp2_error_code_name(uint32_t code);

#endif
