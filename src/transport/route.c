/* Which server a command goes to: the one server, the master the Sentinels name, or the
 * Cluster node of the key's slot. Topology is remembered per process (per thread in ZTS), in
 * plain malloc'd memory, and forgotten when a node fails or redirects. */

#include "php.h"
#include "php_rlock.h"
#include "src/transport/route.h"

#define MAX_REDIRECTS 5
#define CLUSTER_SLOTS 16384

/* ---- Cluster ---- */

const char *rlock_route_hash_tag(const char *key, size_t len, size_t *tag_len)
{
	const char *open = memchr(key, '{', len);
	const char *close = open ? memchr(open + 1, '}', key + len - open - 1) : NULL;
	if (!close || close == open + 1) {
		return NULL;
	}
	*tag_len = close - open - 1;
	return open + 1;
}

uint16_t rlock_route_slot(const char *key, size_t len)
{
	size_t tag_len;
	const char *tag = rlock_route_hash_tag(key, len, &tag_len);
	if (tag) {
		key = tag;
		len = tag_len;
	}
	/* CRC16-CCITT (XModem), as the Cluster specification defines it */
	uint16_t crc = 0;
	for (size_t i = 0; i < len; i++) {
		crc ^= (uint16_t) ((unsigned char) key[i]) << 8;
		for (int b = 0; b < 8; b++) {
			crc = crc & 0x8000 ? (uint16_t) ((crc << 1) ^ 0x1021) : (uint16_t) (crc << 1);
		}
	}
	return crc & (CLUSTER_SLOTS - 1);
}

/* ---- nodes a reply names ---- */

/* A node named by CLUSTER SLOTS, a MOVED or ASK redirect, or a Sentinel. */
typedef struct {
	char host[256];
	int port;
} endpoint;

/* The decimal digits [s, s + len) as a port number (at most 65535), or -1. */
static long long port_of(const char *s, size_t len)
{
	zend_long v;
	return rlock_parse_number(s, len, 65535, &v) ? v : -1;
}

/* host ([host, host + len)) and port into e when they can name a node: a host of 1 to 255
 * bytes, none of them a NUL, a space or a control byte, and a TCP port 1-65535 (port 0 would
 * make a unix socket of the host). NULL, or what is wrong. */
static const char *endpoint_set(endpoint *e, const char *host, size_t len, long long port)
{
	if (len == 0 || len >= sizeof(e->host)) {
		return "invalid host";
	}
	for (size_t i = 0; i < len; i++) {
		if ((unsigned char) host[i] <= ' ' || host[i] == 0x7f) {
			return "invalid host";
		}
	}
	if (port < 1 || port > 65535) {
		return "invalid port";
	}
	memcpy(e->host, host, len);
	e->host[len] = '\0';
	e->port = (int) port;
	return NULL;
}

/* e as a server with o->server's credentials and database (and TLS when the Cluster's
 * seeds or the Sentinels have it). */
static void server_from_endpoint(const rlock_opts *o, const endpoint *e, rlock_server *out)
{
	rlock_server_with_address(out, o, &o->server, e->host, e->port);
}

/* A topology: the node of each slot (a cluster), or one node for all (a Sentinel's master). */
typedef struct {
	uint32_t nnodes;
	endpoint *nodes;
	uint16_t node_of[CLUSTER_SLOTS];  /* 1 + the index in nodes, 0: no node */
} slot_map;

static void slot_map_free(slot_map *m)
{
	free(m->nodes);
	free(m);
}

static void slot_map_dtor(zval *zv)
{
	slot_map_free(Z_PTR_P(zv));
}

/* An empty map for up to n nodes, or NULL. */
static slot_map *slot_map_new(size_t n)
{
	slot_map *m = calloc(1, sizeof(*m));
	if (m && !(m->nodes = calloc(MAX(n, 1), sizeof(endpoint)))) {
		free(m);
		m = NULL;
	}
	return m;
}

static void slot_map_remember(const rlock_opts *o, slot_map *m)
{
	zend_hash_str_update_ptr(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id), m);
}

/* Forget what we know of o's topology (slot map, master): it is asked again next time. */
static void slot_maps_forget(const rlock_opts *o)
{
	zend_hash_str_del(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id));
}

/* One CLUSTER SLOTS entry, [from, to, [host, port, ...], replicas...], into its slot range
 * and master; asked: the node that answered, whose host an entry names with "", "?" or nil
 * when it does not know its own. NULL, or what is wrong with the entry. */
static const char *cluster_entry(const redisReply *r, const rlock_server *asked, long long *from, long long *to,
	endpoint *e)
{
	if (r->type != REDIS_REPLY_ARRAY || r->elements < 3 || r->element[0]->type != REDIS_REPLY_INTEGER
			|| r->element[1]->type != REDIS_REPLY_INTEGER || r->element[2]->type != REDIS_REPLY_ARRAY
			|| r->element[2]->elements < 2 || r->element[2]->element[1]->type != REDIS_REPLY_INTEGER
			|| (r->element[2]->element[0]->type != REDIS_REPLY_STRING && r->element[2]->element[0]->type != REDIS_REPLY_NIL)) {
		return "malformed";
	}
	*from = r->element[0]->integer;
	*to = r->element[1]->integer;
	if (*from < 0 || *from > *to || *to >= CLUSTER_SLOTS) {
		return "invalid slot range";
	}
	const redisReply *host = r->element[2]->element[0];
	bool unknown = host->type == REDIS_REPLY_NIL || host->len == 0 || (host->len == 1 && host->str[0] == '?');
	return endpoint_set(e, unknown ? ZSTR_VAL(asked->host) : host->str, unknown ? ZSTR_LEN(asked->host) : host->len,
		r->element[2]->element[1]->integer);
}

/* cmd to each of the n servers (Sentinels, Cluster seeds) at once, as hung ones must cost
 * one timeout, not one each: replies[i], or NULL with errs[i] set. Reading ends with the
 * first answer (neither an error nor nil). */
static void ask_all(const rlock_opts *o, uint32_t n, const rlock_server *servers, const rlock_cmd *cmd,
	redisReply **replies, rlock_err *errs)
{
	const rlock_cmd *cmds[RLOCK_MAX_SERVERS];
	memset(errs, 0, sizeof(*errs) * n);
	for (uint32_t i = 0; i < n; i++) {
		cmds[i] = cmd;
	}
	rlock_conn_fanout(o, n, servers, cmds, 1, replies, errs);
}

/* CLUSTER SLOTS from the seeds, all asked at once: the first that answers it well. A reply
 * with one entry wrong is not used at all. */
static slot_map *slot_map_load(const rlock_opts *o, rlock_err *err)
{
	rlock_cmd cmd = { .argc = 2, .argv = { "CLUSTER", "SLOTS" }, .lens = { 7, 5 } };
	redisReply *replies[RLOCK_MAX_SERVERS];
	rlock_err errs[RLOCK_MAX_SERVERS];
	slot_map *found = NULL;
	bool told = false;

	ask_all(o, o->nnodes, o->nodes, &cmd, replies, errs);
	for (uint32_t n = 0; n < o->nnodes; n++) {
		const rlock_server *seed = &o->nodes[n];
		redisReply *r = replies[n];
		slot_map *m = NULL;
		if (!r || found) {
			/* a seed that failed, or was not awaited: what a seed that answered said wins */
			if (!r && !found && !told) {
				*err = errs[n];
				told = true;
			}
			if (r) {
				freeReplyObject(r);
			}
			continue;
		}
		if (r->type == REDIS_REPLY_ERROR) {
			rlock_reply_error_set(seed, r, "CLUSTER SLOTS: ", err);
		} else if (r->type != REDIS_REPLY_ARRAY) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, seed->label, "CLUSTER SLOTS: unexpected reply");
		} else if (r->elements > CLUSTER_SLOTS) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, seed->label, "CLUSTER SLOTS: more entries than slots");
		} else if (!(m = slot_map_new(r->elements))) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, seed->label, "CLUSTER SLOTS: out of memory");
		}
		for (size_t i = 0; m && i < r->elements; i++) {
			long long from, to;
			const char *why = cluster_entry(r->element[i], seed, &from, &to, &m->nodes[m->nnodes]);
			if (why) {
				rlock_err_set(err, RLOCK_ERR_CONNECTION, seed->label, "CLUSTER SLOTS: entry %zu: %s", i, why);
				slot_map_free(m);
				m = NULL;
				break;
			}
			m->nnodes++;
			for (long long slot = from; slot <= to; slot++) {
				if (!m->node_of[slot]) {
					m->node_of[slot] = (uint16_t) m->nnodes;
				}
			}
		}
		freeReplyObject(r);
		if (m) {
			slot_map_remember(o, m);
			found = m;
		}
		told = true;
	}
	return found;
}

/* The node for key's slot, from the slot map (loaded when missing). */
static bool cluster_node(const rlock_opts *o, zend_string *key, rlock_server *out, rlock_err *err)
{
	slot_map *m = zend_hash_str_find_ptr(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id));
	if (!m && !(m = slot_map_load(o, err))) {
		return false;
	}
	uint16_t node = m->node_of[rlock_route_slot(ZSTR_VAL(key), ZSTR_LEN(key))];
	if (!node) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, "cluster", "no node serves the slot of this key");
		slot_maps_forget(o);
		return false;
	}
	server_from_endpoint(o, &m->nodes[node - 1], out);
	return true;
}

bool rlock_route_known_node(const rlock_opts *o, zend_string *key, const char **host, int *port)
{
	slot_map *m = zend_hash_str_find_ptr(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id));
	uint16_t node = m ? m->node_of[rlock_route_slot(ZSTR_VAL(key), ZSTR_LEN(key))] : 0;
	if (!node) {
		return false;
	}
	*host = m->nodes[node - 1].host;
	*port = m->nodes[node - 1].port;
	return true;
}

/* "MOVED slot host:port" or "ASK slot host:port" into e (the port follows the last colon: an
 * IPv6 host holds colons; an empty host is the node that answered, asked). NULL, or what
 * is wrong. */
static const char *redirect_target(const redisReply *r, const rlock_server *asked, endpoint *e)
{
	const char *end = r->str + r->len, *slot = memchr(r->str, ' ', r->len) + 1;
	const char *addr = memchr(slot, ' ', end - slot), *colon;
	zend_long n;
	if (!addr || !rlock_parse_number(slot, addr - slot, CLUSTER_SLOTS - 1, &n)) {
		return "invalid slot";
	}
	addr++;
	if (!(colon = zend_memrchr(addr, ':', end - addr))) {
		return "invalid port";
	}
	return endpoint_set(e, colon == addr ? ZSTR_VAL(asked->host) : addr, colon == addr ? ZSTR_LEN(asked->host)
		: (size_t) (colon - addr), port_of(colon + 1, end - colon - 1));
}

/* ---- Sentinel ---- */

/* The master the Sentinels name for o's service, as a server with o->server's credentials:
 * remembered as a map whose every slot is that master, and asked again after a failure.
 * The Sentinels are asked all at once; the first that names a master is taken. */
static bool sentinel_master(const rlock_opts *o, rlock_server *out, rlock_err *err)
{
	rlock_cmd cmd = { .argc = 3, .argv = { "SENTINEL", "get-master-addr-by-name", ZSTR_VAL(o->service) },
		.lens = { 8, 23, ZSTR_LEN(o->service) } };
	redisReply *replies[RLOCK_MAX_SERVERS];
	rlock_err errs[RLOCK_MAX_SERVERS];
	slot_map *m = zend_hash_str_find_ptr(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id));
	bool known = m != NULL, told = false;

	if (!known) {
		ask_all(o, o->nsentinels, o->sentinels, &cmd, replies, errs);
	}
	for (uint32_t i = 0; !known && i < o->nsentinels; i++) {
		endpoint master;
		const char *why = NULL;
		redisReply *r = replies[i];
		if (!r || m) {
			/* a Sentinel that failed, or was not awaited: what one that answered said wins */
			if (!r && !m && !told) {
				*err = errs[i];
				told = true;
			}
			if (r) {
				freeReplyObject(r);
			}
			continue;
		}
		if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[0]->type != REDIS_REPLY_STRING
				|| r->element[1]->type != REDIS_REPLY_STRING) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, o->sentinels[i].label, "knows no master named \"%s\"", ZSTR_VAL(o->service));
		} else if ((why = endpoint_set(&master, r->element[0]->str, r->element[0]->len,
				port_of(r->element[1]->str, r->element[1]->len)))) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, o->sentinels[i].label, "SENTINEL get-master-addr-by-name: %s", why);
		} else if ((m = slot_map_new(1))) {
			m->nodes[0] = master;
			m->nnodes = 1;
			for (int slot = 0; slot < CLUSTER_SLOTS; slot++) {
				m->node_of[slot] = 1;
			}
			slot_map_remember(o, m);
		}
		told = true;
		freeReplyObject(r);
	}
	if (!m) {
		return false;
	}
	server_from_endpoint(o, &m->nodes[0], out);
	return true;
}

/* ---- routing ---- */

/* The label of the server that answered the last routed call ("" : o->server's own). */
ZEND_TLS char answered_label[sizeof(((rlock_server *) 0)->label)];

static void answered_by(const rlock_server *s)
{
	memcpy(answered_label, s->label, sizeof(answered_label));  /* both NUL-terminated, same size */
}

const rlock_server *rlock_route_answered(const rlock_opts *o)
{
	ZEND_TLS rlock_server answered;
	if (!answered_label[0] || strcmp(answered_label, o->server.label) == 0) {
		return &o->server;
	}
	answered = o->server;  /* its strings borrowed, for as long as o lives */
	memcpy(answered.label, answered_label, sizeof(answered.label));
	return &answered;
}

static bool starts_with(redisReply *r, const char *prefix)
{
	size_t n = strlen(prefix);
	return r->type == REDIS_REPLY_ERROR && r->len > n && strncmp(r->str, prefix, n) == 0;
}

redisReply *rlock_route_call(const rlock_opts *o, zend_string *key, const rlock_cmd *cmd, zend_long block_ms, rlock_err *err)
{
	rlock_server target = {0};
	bool asking = false, retried = false;

	answered_label[0] = '\0';
	for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
		const rlock_server *s = &o->server;
		if (o->nnodes && !target.id && !cluster_node(o, key, &target, err)) {
			return NULL;
		}
		if (o->nsentinels && !target.id && !sentinel_master(o, &target, err)) {
			return NULL;
		}
		if (target.id) {
			s = &target;
		}
		if (asking) {
			/* each command to the node an ASK named, and only those, goes after an ASKING */
			rlock_cmd ask = { .argc = 1, .argv = { "ASKING" }, .lens = { 6 } };
			redisReply *a = rlock_conn_call(o, s, &ask, 0, err);
			if (a) {
				freeReplyObject(a);
			}
		}
		redisReply *r = rlock_conn_call(o, s, cmd, block_ms, err);
		if (!r) {
			/* a failed node: a Sentinel or the cluster may name another in its place, now
			 * or by the next call */
			slot_maps_forget(o);
			rlock_server_free(&target, false);
			asking = false;
			if ((o->nnodes || o->nsentinels) && !retried) {
				retried = true;
				continue;
			}
			return NULL;
		}
		if (o->nnodes && (starts_with(r, "MOVED ") || starts_with(r, "ASK "))) {
			/* "MOVED slot host:port": the slot lives elsewhere now, or for one command */
			endpoint to;
			const char *why = redirect_target(r, s, &to);
			asking = r->str[0] == 'A';
			if (why) {
				rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "%s: %s", asking ? "ASK" : "MOVED", why);
				freeReplyObject(r);
				rlock_server_free(&target, false);
				return NULL;
			}
			if (!asking) {
				slot_maps_forget(o);
			}
			rlock_server_free(&target, false);
			server_from_endpoint(o, &to, &target);
			freeReplyObject(r);
			continue;
		}
		if (rlock_conn_not_ready(r) && rlock_conn_left() > o->retry_delay) {
			/* not ready yet (loading its data, running a script, a replica cut off from its
			 * master, a slot on the move): again after retry_delay, within the call */
			freeReplyObject(r);
			rlock_sleep_jittered(MAX(o->retry_delay, 2), rlock_conn_left());
			hop--;
			continue;
		}
		if ((o->nnodes || o->nsentinels) && (starts_with(r, "READONLY ") || starts_with(r, "CLUSTERDOWN ")) && !retried) {
			/* a master that became a replica, or a cluster in the middle of a failover */
			retried = true;
			slot_maps_forget(o);
			rlock_server_free(&target, false);
			asking = false;
			freeReplyObject(r);
			rlock_sleep_us(MIN(100, rlock_conn_left()) * 1000);
			continue;
		}
		answered_by(s);
		if (!starts_with(r, "NOSCRIPT") && rlock_reply_error(s, r, err)) {
			r = NULL;
		}
		rlock_server_free(&target, false);
		return r;
	}
	rlock_err_set(err, RLOCK_ERR_CONNECTION, "cluster", "more than %d redirects", MAX_REDIRECTS);
	rlock_server_free(&target, false);
	return NULL;
}

int rlock_route_call_block(const rlock_opts *o, zend_string *key, const rlock_block *b, redisReply **r1, redisReply **r2,
	rlock_err *err)
{
	rlock_server target = {0};
	const rlock_server *s = &o->server;

	*r1 = *r2 = NULL;
	answered_label[0] = '\0';
	if ((o->nnodes && !cluster_node(o, key, &target, err)) || (o->nsentinels && !sentinel_master(o, &target, err))) {
		return -1;
	}
	if (target.id) {
		s = &target;
	}
	answered_by(s);
	int rc = rlock_conn_call_block(o, s, b, r1, r2, err);
	if (rc < 0 || (*r1 && (*r1)->type == REDIS_REPLY_ERROR && !starts_with(*r1, "NOSCRIPT"))) {
		/* a failed node, a redirect, a replica: ask the topology again next time */
		slot_maps_forget(o);
	}
	rlock_server_free(&target, false);
	return rc;
}

void rlock_route_ginit(HashTable *topology)
{
	zend_hash_init(topology, 4, NULL, slot_map_dtor, 1);
}
