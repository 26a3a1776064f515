/* Which server a command goes to: the one server, the master the Sentinels name, or the
 * Cluster node of the key's slot. Topology is remembered per process (per thread in ZTS), in
 * plain malloc'd memory, and forgotten when a node fails or redirects. */

#include "php.h"
#include "php_rlock.h"
#include "route.h"
#include "scripts.h"

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

/* A cluster's slot map: for each slot the "host:port" of its master, or NULL. */
typedef struct {
	char *nodes[CLUSTER_SLOTS];
} slot_map;


static void slot_map_free(slot_map *m)
{
	for (int i = 0; i < CLUSTER_SLOTS; i++) {
		/* ranges share one string: free each once */
		if (m->nodes[i] && (i == 0 || m->nodes[i] != m->nodes[i - 1])) {
			free(m->nodes[i]);
		}
	}
	free(m);
}

static void slot_map_dtor(zval *zv)
{
	slot_map_free(Z_PTR_P(zv));
}

/* Forget what we know of o's topology (slot map, master): it is asked again next time. */
static void slot_maps_forget(const rlock_opts *o)
{
	zend_hash_str_del(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id));
}

/* CLUSTER SLOTS from the seeds, all asked at once: the first that answers. */
static slot_map *slot_map_load(const rlock_opts *o, rlock_err *err)
{
	rlock_cmd cmd = { .argc = 2, .argv = { "CLUSTER", "SLOTS" }, .lens = { 7, 5 } };
	const rlock_cmd *cmds[RLOCK_MAX_SERVERS];
	redisReply *replies[RLOCK_MAX_SERVERS];
	rlock_err errs[RLOCK_MAX_SERVERS];
	slot_map *m = NULL;

	memset(errs, 0, sizeof(errs));
	for (uint32_t n = 0; n < o->nnodes; n++) {
		cmds[n] = &cmd;
	}
	rlock_conn_fanout(o, o->nnodes, o->nodes, cmds, 1, replies, errs);
	for (uint32_t n = 0; n < o->nnodes; n++) {
		redisReply *r = replies[n];
		if (!r || m) {
			if (!m && errs[n].kind != RLOCK_ERR_NONE) {
				*err = errs[n];
			}
			if (r) {
				freeReplyObject(r);
			}
			continue;
		}
		if (r->type != REDIS_REPLY_ARRAY) {
			rlock_err_set(err, RLOCK_ERR_REPLY, o->nodes[n].label, "CLUSTER SLOTS: %s", r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
			freeReplyObject(r);
			continue;
		}
		m = calloc(1, sizeof(*m));
		for (size_t i = 0; i < r->elements; i++) {
			redisReply *range = r->element[i];
			if (range->type != REDIS_REPLY_ARRAY || range->elements < 3 || range->element[2]->type != REDIS_REPLY_ARRAY
					|| range->element[2]->elements < 2) {
				continue;
			}
			redisReply *master = range->element[2];
			if (range->element[0]->type != REDIS_REPLY_INTEGER || range->element[1]->type != REDIS_REPLY_INTEGER
					|| master->element[1]->type != REDIS_REPLY_INTEGER) {
				continue;
			}
			/* an endpoint the node does not know ("", "?", nil) is the address we asked */
			const char *host = master->element[0]->type == REDIS_REPLY_STRING && master->element[0]->len > 0
				&& strcmp(master->element[0]->str, "?") != 0 ? master->element[0]->str : ZSTR_VAL(o->nodes[n].host);
			char addr[300];
			snprintf(addr, sizeof(addr), "%s:%lld", host, master->element[1]->integer);
			char *shared = strdup(addr);
			long long from = range->element[0]->integer, to = range->element[1]->integer;
			bool used = false;
			for (long long s = from; s <= to && s < CLUSTER_SLOTS; s++) {
				if (!m->nodes[s]) {
					m->nodes[s] = shared;
					used = true;
				}
			}
			if (!used) {
				free(shared);
			}
		}
		freeReplyObject(r);
		zend_hash_str_update_ptr(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id), m);
	}
	return m;
}

/* "host:port" into a server with o->server's credentials. */
static void server_from_addr(const rlock_opts *o, const char *addr, size_t len, rlock_server *out)
{
	const char *colon = zend_memrchr(addr, ':', len);
	char host[256];
	size_t hl = colon ? (size_t) (colon - addr) : len;
	if (hl >= sizeof(host)) {
		hl = sizeof(host) - 1;
	}
	memcpy(host, addr, hl);
	host[hl] = '\0';
	rlock_server_with_address(out, &o->server, host, colon ? atoi(colon + 1) : 6379);
}

/* The node for key's slot, from the slot map (loaded when missing). */
static bool cluster_node(const rlock_opts *o, zend_string *key, rlock_server *out, rlock_err *err)
{
	slot_map *m = zend_hash_str_find_ptr(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id));
	if (!m && !(m = slot_map_load(o, err))) {
		return false;
	}
	const char *addr = m->nodes[rlock_route_slot(ZSTR_VAL(key), ZSTR_LEN(key))];
	if (!addr) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, "cluster", "no node serves the slot of this key");
		slot_maps_forget(o);
		return false;
	}
	server_from_addr(o, addr, strlen(addr), out);
	return true;
}

/* ---- Sentinel ---- */

/* The master the Sentinels name for o's service, as a server with o->server's credentials:
 * remembered as a map whose every slot is that master, and asked again after a failure.
 * The Sentinels are asked all at once; the first that names a master is taken. */
static bool sentinel_master(const rlock_opts *o, rlock_server *out, rlock_err *err)
{
	rlock_cmd cmd = { .argc = 3, .argv = { "SENTINEL", "get-master-addr-by-name", ZSTR_VAL(o->service) },
		.lens = { 8, 23, ZSTR_LEN(o->service) } };
	const rlock_cmd *cmds[RLOCK_MAX_SERVERS];
	redisReply *replies[RLOCK_MAX_SERVERS];
	rlock_err errs[RLOCK_MAX_SERVERS];
	slot_map *m = zend_hash_str_find_ptr(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id));
	bool asked = m != NULL;  /* known already: nothing to read */

	if (!asked) {
		memset(errs, 0, sizeof(errs));
		for (uint32_t i = 0; i < o->nsentinels; i++) {
			cmds[i] = &cmd;
		}
		rlock_conn_fanout(o, o->nsentinels, o->sentinels, cmds, 1, replies, errs);
	}
	for (uint32_t i = 0; !asked && i < o->nsentinels; i++) {
		redisReply *r = replies[i];
		if (!r) {
			if (!m) {
				*err = errs[i];
			}
			continue;
		}
		if (!m && r->type == REDIS_REPLY_ARRAY && r->elements == 2 && r->element[0]->type == REDIS_REPLY_STRING
				&& r->element[1]->type == REDIS_REPLY_STRING) {
			char addr[300];
			snprintf(addr, sizeof(addr), "%s:%s", r->element[0]->str, r->element[1]->str);
			m = calloc(1, sizeof(*m));
			char *shared = strdup(addr);
			for (int slot = 0; slot < CLUSTER_SLOTS; slot++) {
				m->nodes[slot] = shared;
			}
			zend_hash_str_update_ptr(&RLOCK_G(topology), ZSTR_VAL(o->id), ZSTR_LEN(o->id), m);
		} else if (!m) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, o->sentinels[i].label, "knows no master named \"%s\"", ZSTR_VAL(o->service));
		}
		freeReplyObject(r);
	}
	if (!m) {
		return false;
	}
	server_from_addr(o, m->nodes[0], strlen(m->nodes[0]), out);
	return true;
}

/* ---- routing ---- */

static bool starts_with(redisReply *r, const char *prefix)
{
	size_t n = strlen(prefix);
	return r->type == REDIS_REPLY_ERROR && r->len > n && strncmp(r->str, prefix, n) == 0;
}

redisReply *rlock_route_call(const rlock_opts *o, zend_string *key, const rlock_cmd *cmd, zend_long block_ms, rlock_err *err)
{
	rlock_server target = {0};
	bool asking = false, retried = false;

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
			const char *addr = strrchr(r->str, ' ') + 1;
			asking = r->str[0] == 'A';
			if (!asking) {
				slot_maps_forget(o);
			}
			rlock_server_free(&target, false);
			server_from_addr(o, addr, r->len - (addr - r->str), &target);
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
			usleep((useconds_t) MIN(100, rlock_conn_left()) * 1000);
			continue;
		}
		if (r->type == REDIS_REPLY_ERROR && !starts_with(r, "NOSCRIPT")) {
			rlock_err_set(err, RLOCK_ERR_REPLY, s->label, "%.*s", (int) r->len, r->str);
			freeReplyObject(r);
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
	if ((o->nnodes && !cluster_node(o, key, &target, err)) || (o->nsentinels && !sentinel_master(o, &target, err))) {
		return -1;
	}
	if (target.id) {
		s = &target;
	}
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
