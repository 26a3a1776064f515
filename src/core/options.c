/* Options: php.ini defaults and the constructor's array into one validated struct. */

#include "php.h"
#include "php_rlock.h"
#include "src/core/options.h"
#include "zend_smart_str.h"
#include "src/transport/conn.h"
#include "src/core/errors.h"
#include "zend_exceptions.h"
#include "ext/standard/php_string.h"

typedef enum { OPT_LONG, OPT_BOOL, OPT_STRING, OPT_SERVER, OPT_SERVERS, OPT_NODES, OPT_SENTINELS } rlock_opt_kind;

typedef struct {
	const char *name;
	size_t name_len;
	rlock_opt_kind kind;
	size_t offset;
	zend_long min, max;  /* OPT_LONG: the range, in the array and in php.ini alike */
	bool ms;             /* OPT_LONG: a duration in milliseconds */
} rlock_opt_def;

#define OPT(name, kind, field) { name, sizeof(name) - 1, kind, XtOffsetOf(rlock_opts, field), 0, 0, false }
#define OPT_RANGE(name, field, min, max) { name, sizeof(name) - 1, OPT_LONG, XtOffsetOf(rlock_opts, field), min, max, false }
#define OPT_MS(name, field, min) { name, sizeof(name) - 1, OPT_LONG, XtOffsetOf(rlock_opts, field), min, RLOCK_MS_MAX, true }

/* Durations are milliseconds. Where seconds are as likely written (symfony's and Laravel's
 * ttls, phpredis' and Predis' timeouts), a number under RLOCK_MS_FLOOR is refused: ttl,
 * connect_timeout, read_timeout. wait and retry_delay take a few ms, which are meant there,
 * and a wait too short fails in sight (lock() false, "within 5 ms"). */
static const rlock_opt_def rlock_opt_defs[] = {
	OPT("server", OPT_SERVER, server),
	OPT("servers", OPT_SERVERS, servers),
	OPT("cluster", OPT_NODES, nodes),
	OPT("sentinel", OPT_SENTINELS, sentinels),
	OPT("service", OPT_STRING, service),
	/* WAIT counts replicas in an int */
	OPT_RANGE("sync_replicas", sync_replicas, 0, INT_MAX),
	OPT_MS("ttl", ttl, RLOCK_MS_FLOOR),
	OPT_MS("wait", wait, 0),
	/* 0 would retry at once where nothing wakes us: a reconnect storm while Redis is down */
	OPT_MS("retry_delay", retry_delay, 1),
	OPT("prefix", OPT_STRING, prefix),
	OPT_MS("connect_timeout", connect_timeout, RLOCK_MS_FLOOR),
	OPT_MS("read_timeout", read_timeout, RLOCK_MS_FLOOR),
	/* microseconds: a spin of more than 10 ms would only burn the CPU */
	OPT_RANGE("spin_us", spin_us, 0, 10000),
	OPT("persistent", OPT_BOOL, persistent),
	OPT("reentrant", OPT_BOOL, reentrant),
	OPT("auto_release", OPT_BOOL, auto_release),
	OPT("fencing", OPT_BOOL, fencing),
	OPT("fair", OPT_BOOL, fair),
	OPT("watchdog", OPT_BOOL, watchdog),
	OPT("tls_ca", OPT_STRING, tls_ca),
	OPT("tls_cert", OPT_STRING, tls_cert),
	OPT("tls_key", OPT_STRING, tls_key),
	OPT("tls_server_name", OPT_STRING, tls_server_name),
	OPT("tls_verify_peer", OPT_BOOL, tls_verify_peer),
};

#define OPT_COUNT (sizeof(rlock_opt_defs) / sizeof(rlock_opt_defs[0]))
/* one bit per option: those an array gave, and RLOCK_G(ini_invalid) */
typedef char opt_bits_fit[OPT_COUNT <= 32 ? 1 : -1];
#define OPT_BIT(def) (1u << ((def) - rlock_opt_defs))

static const rlock_opt_def *find_def(const char *name, size_t len)
{
	for (size_t i = 0; i < OPT_COUNT; i++) {
		if (rlock_opt_defs[i].name_len == len && memcmp(rlock_opt_defs[i].name, name, len) == 0) {
			return &rlock_opt_defs[i];
		}
	}
	return NULL;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

/* Percent-decoded copy of [s, s + len): user names and passwords may hold ':' or '@'. */
static zend_string *url_decode(const char *s, size_t len, bool persistent)
{
	zend_string *out = zend_string_alloc(len, persistent);
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
			ZSTR_VAL(out)[n++] = (char) (hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
			i += 2;
		} else {
			ZSTR_VAL(out)[n++] = s[i];
		}
	}
	ZSTR_VAL(out)[n] = '\0';
	ZSTR_LEN(out) = n;
	return out;
}

bool rlock_parse_number(const char *s, size_t len, zend_long max, zend_long *out)
{
	zend_long v = 0;
	if (len == 0) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		int d = s[i] - '0';
		if (d < 0 || d > 9 || d > max || v > (max - d) / 10) {
			return false;
		}
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static void scrub_one(const rlock_server *s, char *msg, size_t size)
{
	char *copy;
	if (!s->pass || !zend_memnstr(msg, ZSTR_VAL(s->pass), ZSTR_LEN(s->pass), msg + strlen(msg))) {
		return;
	}
	copy = estrdup(msg);
	rlock_err_quote(msg, size, copy, strlen(copy), ZSTR_VAL(s->pass), ZSTR_LEN(s->pass));
	efree(copy);
}

void rlock_opts_scrub(const rlock_opts *o, char *msg, size_t size)
{
	scrub_one(&o->server, msg, size);
	for (uint32_t i = 0; i < o->nservers; i++) {
		scrub_one(&o->servers[i], msg, size);
	}
	for (uint32_t i = 0; i < o->nnodes; i++) {
		scrub_one(&o->nodes[i], msg, size);
	}
	for (uint32_t i = 0; i < o->nsentinels; i++) {
		scrub_one(&o->sentinels[i], msg, size);
	}
}

static void server_finish(rlock_server *s, bool persistent)
{
	smart_str id = {0};
	smart_str_append(&id, s->host);
	smart_str_appendc(&id, '\0');
	smart_str_append_long(&id, s->port);
	smart_str_appendc(&id, '\0');
	smart_str_append_long(&id, s->db);
	smart_str_appendc(&id, '\0');
	if (s->user) {
		smart_str_append(&id, s->user);
	}
	smart_str_appendc(&id, '\0');
	if (s->pass) {
		smart_str_append(&id, s->pass);
	}
	if (s->tls) {
		smart_str_appendl(&id, "\0tls", 4);
	}
	smart_str_0(&id);
	s->id = zend_string_init(ZSTR_VAL(id.s), ZSTR_LEN(id.s), persistent);
	smart_str_free(&id);

	if (s->port == 0) {
		snprintf(s->label, sizeof(s->label), "unix:%s", ZSTR_VAL(s->host));
	} else if (memchr(ZSTR_VAL(s->host), ':', ZSTR_LEN(s->host))) {
		snprintf(s->label, sizeof(s->label), "[%s]:%d", ZSTR_VAL(s->host), s->port);
	} else {
		snprintf(s->label, sizeof(s->label), "%s:%d", ZSTR_VAL(s->host), s->port);
	}
}

/* Where in a DSN the password is: [start, end); start NULL when it has none. */
typedef struct {
	const char *start, *end;
} secret_span;

/* rlock_server_parse(), telling also where the password is: what phpinfo() masks is what
 * the connection would send. */
static zend_result server_parse(const char *dsn, size_t len, rlock_server *out, bool persistent, const char **why,
	secret_span *secret)
{
	const char *p = dsn, *end = dsn + len;
	memset(out, 0, sizeof(*out));
	memset(secret, 0, sizeof(*secret));
	*why = NULL;

	if (memchr(dsn, '\0', len)) {
		*why = "must not contain NUL bytes";
		return FAILURE;
	}
	if (len > 7 && strncmp(p, "unix://", 7) == 0) {
		p += 7;
		if (p == end || *p != '/') {
			*why = "must name an absolute socket path, as unix:///path/to/redis.sock";
			return FAILURE;
		}
		out->host = zend_string_init(p, end - p, persistent);
		out->port = 0;
		server_finish(out, persistent);
		return SUCCESS;
	}
	if (len > 8 && strncmp(p, "redis://", 8) == 0) {
		p += 8;
	} else if (len > 9 && strncmp(p, "rediss://", 9) == 0) {
		p += 9;
		out->tls = true;
	} else if (len > 6 && strncmp(p, "tcp://", 6) == 0) {
		p += 6;
	} else {
		*why = "must be redis://[user:pass@]host[:port][/db], rediss://... (TLS), tcp://host:port or unix:///path";
		return FAILURE;
	}

	/* The authority ends at the first '/'; credentials end at its last '@'. */
	const char *auth_end = memchr(p, '/', end - p);
	if (!auth_end) {
		auth_end = end;
	}
	const char *at = zend_memrchr(p, '@', auth_end - p);
	if (at) {
		const char *colon = memchr(p, ':', at - p);
		if (colon) {
			if (colon > p) {
				out->user = url_decode(p, colon - p, persistent);
			}
			out->pass = url_decode(colon + 1, at - colon - 1, persistent);
		} else {
			out->pass = url_decode(p, at - p, persistent);
		}
		secret->start = colon ? colon + 1 : p;
		secret->end = at;
		p = at + 1;
	}

	const char *host = p, *host_end;
	if (p < auth_end && *p == '[') {
		host = p + 1;
		host_end = memchr(host, ']', auth_end - host);
		if (!host_end) {
			*why = "has an unterminated [IPv6] address";
			goto fail;
		}
		p = host_end + 1;
	} else {
		host_end = p < auth_end ? memchr(p, ':', (size_t) (auth_end - p)) : NULL;
		if (!host_end) {
			host_end = auth_end;
		}
		p = host_end;
	}
	if (host_end == host) {
		*why = "has no host";
		goto fail;
	}

	zend_long port = 6379;
	if (p < auth_end) {
		if (*p != ':' || !rlock_parse_number(p + 1, auth_end - p - 1, 65535, &port) || port == 0) {
			*why = "has an invalid port: it must be between 1 and 65535";
			goto fail;
		}
	}
	zend_long db = 0;
	if (auth_end < end) {
		const char *d = auth_end + 1;
		if (d < end && !rlock_parse_number(d, end - d, RLOCK_DB_MAX, &db)) {
			*why = "has an invalid database number: it must be between 0 and " ZEND_TOSTR(RLOCK_DB_MAX);
			goto fail;
		}
	}
	out->host = zend_string_init(host, host_end - host, persistent);
	out->port = (int) port;
	out->db = db;
	server_finish(out, persistent);
	return SUCCESS;

fail:
	rlock_server_free(out, persistent);
	return FAILURE;
}

zend_result rlock_server_parse(const char *dsn, size_t len, rlock_server *out, bool persistent, const char **why)
{
	secret_span secret;
	return server_parse(dsn, len, out, persistent, why, &secret);
}

static zend_result entry_parse(const char *entry, size_t len, rlock_server *out, const char **why, secret_span *secret)
{
	if (zend_memnstr(entry, "://", 3, entry + len)) {
		return server_parse(entry, len, out, false, why, secret);
	}
	zend_string *dsn = zend_string_concat2("tcp://", 6, entry, len);
	zend_result ok = server_parse(ZSTR_VAL(dsn), ZSTR_LEN(dsn), out, false, why, secret);
	if (secret->start) {
		/* the same place in the entry, which has no "tcp://" */
		secret->start = entry + (secret->start - ZSTR_VAL(dsn) - 6);
		secret->end = entry + (secret->end - ZSTR_VAL(dsn) - 6);
	}
	zend_string_release(dsn);
	return ok;
}

zend_result rlock_server_parse_entry(const char *entry, size_t len, rlock_server *out, const char **why)
{
	secret_span secret;
	return entry_parse(entry, len, out, why, &secret);
}

void rlock_server_mask(const char *entry, size_t len, smart_str *out)
{
	static const char space[] = " \t\n\r\v";
	const char *b = entry, *e = entry + len, *why;
	secret_span secret;
	rlock_server s;

	/* a php.ini list entry is read trimmed: mask the entry, print its spaces as they are */
	while (b < e && memchr(space, *b, sizeof(space) - 1)) {
		b++;
	}
	while (e > b && memchr(space, e[-1], sizeof(space) - 1)) {
		e--;
	}
	if (entry_parse(b, e - b, &s, &why, &secret) == SUCCESS) {
		rlock_server_free(&s, false);
	} else {
		/* refused: anything up to the last '@' (after the scheme) may be a password */
		const char *scheme = zend_memnstr(b, "://", 3, e);
		secret.start = scheme ? scheme + 3 : b;
		secret.end = zend_memrchr(secret.start, '@', e - secret.start);
	}
	if (!secret.start || !secret.end) {
		smart_str_appendl(out, entry, len);
		return;
	}
	smart_str_appendl(out, entry, secret.start - entry);
	smart_str_appends(out, "***");
	smart_str_appendl(out, secret.end, entry + len - secret.end);
}

void rlock_servers_mask(const char *list, size_t len, smart_str *out)
{
	for (const char *p = list, *end = list + len; p < end; ) {
		const char *comma = memchr(p, ',', end - p);
		rlock_server_mask(p, (comma ? comma : end) - p, out);
		if (comma) {
			smart_str_appendc(out, ',');
		}
		p = comma ? comma + 1 : end;
	}
}

void rlock_server_free(rlock_server *s, bool persistent)
{
	if (s->host) zend_string_release_ex(s->host, persistent);
	if (s->user) zend_string_release_ex(s->user, persistent);
	if (s->pass) zend_string_release_ex(s->pass, persistent);
	if (s->id) zend_string_release_ex(s->id, persistent);
	memset(s, 0, sizeof(*s));
}

/* php.ini's rlock.<def->name> as it is now ("" when unset). */
static const char *ini_current(const rlock_opt_def *def)
{
	char full[48];
	snprintf(full, sizeof(full), "rlock.%s", def->name);
	const char *v = zend_ini_string_ex(full, strlen(full), 0, NULL);
	return v ? v : "";
}

/* "php.ini setting rlock.NAME="VALUE" why", the value's passwords masked. */
static zend_string *ini_message(const rlock_opt_def *def, const char *value, size_t len, const char *why)
{
	smart_str m = {0};
	smart_str_appends(&m, "php.ini setting rlock.");
	smart_str_appends(&m, def->name);
	smart_str_appends(&m, "=\"");
	if (def->kind == OPT_SERVER || def->kind == OPT_SERVERS || def->kind == OPT_NODES || def->kind == OPT_SENTINELS) {
		rlock_servers_mask(value, len, &m);
	} else {
		smart_str_appendl(&m, value, len);
	}
	smart_str_appends(&m, "\" ");
	smart_str_appends(&m, why);
	return smart_str_extract(&m);
}

/* A bad option: a ValueError naming it, as an argument of the calling function, or as the
 * php.ini setting it came from (arg_num 0), with that setting's value. */
static ZEND_ATTRIBUTE_FORMAT(printf, 3, 4) void option_error(uint32_t arg_num, const char *name, const char *fmt, ...)
{
	va_list ap;
	char *what;
	va_start(ap, fmt);
	zend_vspprintf(&what, 0, fmt, ap);
	va_end(ap);
	if (arg_num) {
		zend_argument_value_error(arg_num, "option \"%s\" %s", name, what);
	} else {
		const rlock_opt_def *def = find_def(name, strlen(name));
		const char *value = ini_current(def);
		zend_string *msg = ini_message(def, value, strlen(value), what);
		zend_value_error("%s", ZSTR_VAL(msg));
		zend_string_release(msg);
	}
	efree(what);
}

/* A wrongly typed option: a TypeError naming it. */
static void option_type_error(uint32_t arg_num, const char *name, const char *type, zval *v)
{
	if (arg_num) {
		zend_argument_type_error(arg_num, "option \"%s\" must be of type %s, %s given", name, type, zend_zval_type_name(v));
	} else {
		zend_type_error("php.ini setting rlock.%s must be of type %s, %s given", name, type, zend_zval_type_name(v));
	}
}

/* Why v (integer false: a php.ini value that is no integer) is no value of def, into why:
 * a duration under RLOCK_MS_FLOOR is seconds meant, and the message says so. */
static void range_why(const rlock_opt_def *def, zend_long v, bool integer, char *why, size_t size)
{
	if (integer && def->min == RLOCK_MS_FLOOR && v > 0 && v < def->min) {
		snprintf(why, size, "is in milliseconds and must be at least %d: " ZEND_LONG_FMT " would be " ZEND_LONG_FMT
			" ms (" ZEND_LONG_FMT " second%s is " ZEND_LONG_FMT ")", RLOCK_MS_FLOOR, v, v, v, v == 1 ? "" : "s", v * 1000);
		return;
	}
	snprintf(why, size, "must be %sbetween " ZEND_LONG_FMT " and " ZEND_LONG_FMT "%s", integer ? "" : "an integer ",
		def->min, def->max, def->ms ? " (milliseconds)" : "");
}

/* v as a PHP int parameter takes it in coercive mode: an int, a bool, an integral float or
 * a numeric string ("5000", " 5000", "1e3"). What PHP takes only with a deprecation (1.5,
 * "1.5": truncated; null) is refused, as PHP 9 will. */
static bool coerce_long(zval *v, zend_long *out)
{
	double d;

	switch (Z_TYPE_P(v)) {
		case IS_LONG:
			*out = Z_LVAL_P(v);
			return true;
		case IS_FALSE:
		case IS_TRUE:
			*out = Z_TYPE_P(v) == IS_TRUE;
			return true;
		case IS_DOUBLE:
			d = Z_DVAL_P(v);
			break;
		case IS_STRING: {
			int type = is_numeric_string(Z_STRVAL_P(v), Z_STRLEN_P(v), out, &d, false);
			if (type == IS_LONG) {
				return true;
			}
			if (type != IS_DOUBLE) {
				return false;
			}
			break;
		}
		default:
			return false;
	}
	if (zend_isnan(d) || !ZEND_DOUBLE_FITS_LONG(d) || d != (double) (zend_long) d) {
		return false;
	}
	*out = (zend_long) d;
	return true;
}

/* v as a PHP bool parameter takes it (a bool, an int, a float), and of strings only "", "0"
 * and "1": PHP would take "false" or "off" for true. false when it does not. */
static bool coerce_bool(zval *v, bool *out)
{
	switch (Z_TYPE_P(v)) {
		case IS_FALSE:
		case IS_TRUE:
		case IS_LONG:
		case IS_DOUBLE:
			*out = zend_is_true(v);
			return true;
		case IS_STRING:
			if (Z_STRLEN_P(v) > 1 || (Z_STRLEN_P(v) == 1 && Z_STRVAL_P(v)[0] != '0' && Z_STRVAL_P(v)[0] != '1')) {
				return false;
			}
			*out = zend_is_true(v);
			return true;
		default:
			return false;
	}
}

static bool set_server(rlock_opts *o, const char *dsn, size_t len, uint32_t arg_num)
{
	const char *why;
	rlock_server s;
	if (rlock_server_parse(dsn, len, &s, false, &why) == FAILURE) {
		option_error(arg_num, "server", "%s", why);
		return false;
	}
	rlock_server_free(&o->server, false);
	o->server = s;
	return true;
}

/* A list of servers: DSNs ("servers") or "host:port" / DSNs ("cluster", "sentinel"). */
static bool set_server_list(const char *name, rlock_server **out, uint32_t *count, zval *v, uint32_t arg_num)
{
	HashTable *list;
	zval *item;
	uint32_t n = 0;

	if (Z_TYPE_P(v) != IS_ARRAY) {
		option_type_error(arg_num, name, "array", v);
		return false;
	}
	list = Z_ARRVAL_P(v);
	if (!zend_array_is_list(list) || zend_hash_num_elements(list) == 0 || zend_hash_num_elements(list) > RLOCK_MAX_SERVERS) {
		option_error(arg_num, name, "must be a list of 1 to %d strings", RLOCK_MAX_SERVERS);
		return false;
	}
	*out = ecalloc(zend_hash_num_elements(list), sizeof(rlock_server));
	ZEND_HASH_FOREACH_VAL(list, item) {
		const char *why;
		ZVAL_DEREF(item);
		if (Z_TYPE_P(item) != IS_STRING) {
			option_error(arg_num, name, "must be a list of strings, %s found", zend_zval_type_name(item));
			return false;
		}
		if (rlock_server_parse_entry(Z_STRVAL_P(item), Z_STRLEN_P(item), &(*out)[n], &why) == FAILURE) {
			option_error(arg_num, name, "entry %u %s", n, why);
			return false;
		}
		*count = ++n;
		for (uint32_t i = 0; i + 1 < n; i++) {
			if (zend_string_equals((*out)[i].id, (*out)[n - 1].id)) {
				option_error(arg_num, name, "entry %u names the same server as entry %u", n - 1, i);
				return false;
			}
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

/* One entry of $options into o. */
static bool set_option(rlock_opts *o, const rlock_opt_def *def, zval *v, uint32_t arg_num)
{
	void *field = (char *) o + def->offset;

	switch (def->kind) {
		case OPT_LONG: {
			zend_long n;
			char why[160];
			if (!coerce_long(v, &n)) {
				option_type_error(arg_num, def->name, "int", v);
				return false;
			}
			if (n < def->min || n > def->max) {
				range_why(def, n, true, why, sizeof(why));
				option_error(arg_num, def->name, "%s", why);
				return false;
			}
			*(zend_long *) field = n;
			return true;
		}
		case OPT_BOOL:
			if (!coerce_bool(v, (bool *) field)) {
				if (Z_TYPE_P(v) == IS_STRING) {
					option_error(arg_num, def->name, "must be a bool: a string must be \"\", \"0\" or \"1\" "
						"(PHP would read any other as true)");
				} else {
					option_type_error(arg_num, def->name, "bool", v);
				}
				return false;
			}
			return true;
		case OPT_SERVERS:
			return set_server_list(def->name, &o->servers, &o->nservers, v, arg_num);
		case OPT_NODES:
			return set_server_list(def->name, &o->nodes, &o->nnodes, v, arg_num);
		case OPT_SENTINELS:
			return set_server_list(def->name, &o->sentinels, &o->nsentinels, v, arg_num);
		case OPT_STRING:
		case OPT_SERVER: {
			/* as a PHP string parameter takes it: a string, an int, a float, a bool, a Stringable */
			zend_string *str = (Z_TYPE_P(v) > IS_NULL && Z_TYPE_P(v) <= IS_STRING)
				|| (Z_TYPE_P(v) == IS_OBJECT && Z_OBJCE_P(v)->__tostring) ? zval_try_get_string(v) : NULL;
			if (!str) {
				if (!EG(exception)) {
					option_type_error(arg_num, def->name, "string", v);
				}
				return false;
			}
			if (def->kind == OPT_SERVER) {
				bool ok = set_server(o, ZSTR_VAL(str), ZSTR_LEN(str), arg_num);
				zend_string_release(str);
				return ok;
			}
			if (*(zend_string **) field) {
				zend_string_release(*(zend_string **) field);
			}
			*(zend_string **) field = str;
			return true;
		}
	}
	return false;
}

/* A php.ini list default ("a, b, c"), for a list option the array did not give. */
static bool ini_list(rlock_opts *o, const char *name, const char *value)
{
	const rlock_opt_def *def = find_def(name, strlen(name));
	zval list;
	bool ok;

	if (!value || !*value) {
		return true;
	}
	array_init(&list);
	for (const char *p = value; *p; ) {
		size_t len = strcspn(p, ",");
		zend_string *item = zend_string_init(p, len, false);
		zend_string *trimmed = php_trim(item, NULL, 0, 3);
		if (ZSTR_LEN(trimmed)) {
			add_next_index_str(&list, trimmed);
		} else {
			zend_string_release(trimmed);
		}
		zend_string_release(item);
		p += len + (p[len] == ',');
	}
	ok = set_option(o, def, &list, 0);
	zval_ptr_dtor(&list);
	return ok;
}

/* Whether v, argument arg_num, is within def's range; false with a ValueError saying why. */
static bool check_arg(const rlock_opt_def *def, zend_long v, uint32_t arg_num)
{
	char why[160];

	if (v >= def->min && v <= def->max) {
		return true;
	}
	range_why(def, v, true, why, sizeof(why));
	zend_argument_value_error(arg_num, "%s", why);
	return false;
}

bool rlock_opts_check_arg(const char *name, zend_long v, uint32_t arg_num)
{
	return check_arg(find_def(name, strlen(name)), v, arg_num);
}

bool rlock_ms_floor_arg(zend_long v, uint32_t arg_num)
{
	/* a duration argument that is no option, ranged and worded as ttl is */
	static const rlock_opt_def floored = { "", 0, OPT_LONG, 0, RLOCK_MS_FLOOR, RLOCK_MS_MAX, true };
	return check_arg(&floored, v, arg_num);
}

const char *rlock_opts_given(HashTable *options, const char *const *names)
{
	zend_string *name;

	if (!options) {
		return NULL;
	}
	ZEND_HASH_FOREACH_STR_KEY(options, name) {
		for (const char *const *n = names; name && *n; n++) {
			if (ZSTR_LEN(name) == strlen(*n) && memcmp(ZSTR_VAL(name), *n, ZSTR_LEN(name)) == 0) {
				return *n;
			}
		}
	} ZEND_HASH_FOREACH_END();
	return NULL;
}

HashTable *rlock_opts_split(HashTable *options, const char *name, zval *own)
{
	zval *v = options ? zend_hash_str_find(options, name, strlen(name)) : NULL;
	ZVAL_UNDEF(own);
	if (!v) {
		return options;
	}
	ZVAL_COPY_DEREF(own, v);
	HashTable *rest = zend_array_dup(options);
	zend_hash_str_del(rest, name, strlen(name));
	return rest;
}

bool rlock_opts_own_long(const char *name, zval *v, zend_long min, zend_long max, const char *why, uint32_t arg_num,
	zend_long *out)
{
	if (!coerce_long(v, out)) {
		option_type_error(arg_num, name, "int", v);
		return false;
	}
	if (*out < min || *out > max) {
		zend_argument_value_error(arg_num, "option \"%s\" must be between " ZEND_LONG_FMT " and " ZEND_LONG_FMT "%s",
			name, min, max, why ? why : "");
		return false;
	}
	return true;
}

/* php.ini's bool words as zend_ini_parse_bool() reads them, and integers; anything else (a
 * typo: "flase", which PHP reads as off, "enabled") is refused. */
static bool ini_bool(const char *s, size_t len, bool *out)
{
	static const char *const words[] = { "on", "yes", "true", "off", "no", "false", "none" };
	zend_long n = 0;

	if (len == 0 || rlock_parse_number(s, len, ZEND_LONG_MAX, &n)) {
		*out = n != 0;
		return true;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (strlen(words[i]) == len && strncasecmp(s, words[i], len) == 0) {
			*out = i < 3;
			return true;
		}
	}
	return false;
}

/* The php.ini value s (len bytes) of rlock.<def->name>: an integer or a bool parsed into
 * *parsed. false, with the reason in why, when it is invalid. */
static bool ini_parse(const rlock_opt_def *def, const char *s, size_t len, void *parsed, char *why, size_t size)
{
	const char *reason;
	zend_long n = 0;
	bool neg = len > 0 && s[0] == '-';
	rlock_server server;

	switch (def->kind) {
		case OPT_LONG:
			/* decimal digits only: "1e3", "1k" or 2^64 are not read as 1, 1024 or a wrapped value */
			if (rlock_parse_number(s, len, def->max, &n) && n >= def->min) {
				*(zend_long *) parsed = n;
				return true;
			}
			/* out of range, or (not only digits, a sign aside) no integer */
			range_why(def, neg ? -1 : n, len > neg && strspn(s + neg, "0123456789") == len - neg, why, size);
			return false;
		case OPT_BOOL:
			if (!ini_bool(s, len, (bool *) parsed)) {
				snprintf(why, size, "must be a bool: On, Off, 1, 0, yes, no, true or false");
				return false;
			}
			return true;
		case OPT_SERVER:
			/* checked here only to say so at startup: every use parses it */
			if (rlock_server_parse(s, len, &server, false, &reason) == FAILURE) {
				snprintf(why, size, "%s", reason);
				return false;
			}
			rlock_server_free(&server, false);
			return true;
		default:
			return true;
	}
}

bool rlock_opts_ini_update(const char *name, zend_string *value, void *global, bool warn)
{
	const rlock_opt_def *def = find_def(name, strlen(name));
	const char *s = value ? ZSTR_VAL(value) : "";
	size_t len = value ? ZSTR_LEN(value) : 0;
	char why[256];

	rlock_opts_forget();
	if (def->kind != OPT_LONG && def->kind != OPT_BOOL) {
		/* a string, kept as given (as OnUpdateString keeps it) */
		*(char **) global = value ? ZSTR_VAL(value) : NULL;
	}
	if (ini_parse(def, s, len, global, why, sizeof(why))) {
		RLOCK_G(ini_invalid) &= ~OPT_BIT(def);
		return true;
	}
	if (def->kind == OPT_LONG || def->kind == OPT_BOOL) {
		RLOCK_G(ini_invalid) |= OPT_BIT(def);
	}
	if (warn) {
		zend_string *msg = ini_message(def, s, len, why);
		php_error_docref(NULL, E_WARNING, "%s; every call that uses it throws", ZSTR_VAL(msg));
		zend_string_release(msg);
	}
	return false;
}

bool rlock_ini_long(const char *s, size_t len, zend_long min, zend_long max, zend_long *out, char *why, size_t size)
{
	rlock_opt_def def = { "", 0, OPT_LONG, 0, min, max, false };
	return ini_parse(&def, s, len, out, why, size);
}

/* A ValueError for the first php.ini setting of bad (bits of RLOCK_G(ini_invalid)), naming
 * it and its value. */
static void ini_invalid_error(uint32_t bad)
{
	const rlock_opt_def *def = rlock_opt_defs;
	zend_long scratch;  /* an invalid integer or bool is not stored */
	char why[256];

	while (!(bad & OPT_BIT(def))) {
		def++;
	}
	const char *value = ini_current(def);
	ini_parse(def, value, strlen(value), &scratch, why, sizeof(why));
	option_error(0, def->name, "%s", why);
}

/* What tells a set of servers apart from any other (and from one server). */
static zend_string *servers_id(const char *kind, const rlock_server *list, uint32_t n)
{
	smart_str id = {0};
	smart_str_appends(&id, kind);
	for (uint32_t i = 0; i < n; i++) {
		smart_str_appendc(&id, '\1');
		smart_str_append(&id, list[i].id);
	}
	return smart_str_extract(&id);
}

static void server_list_free(rlock_server *list, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		rlock_server_free(&list[i], false);
	}
	if (list) {
		efree(list);
	}
}

void rlock_opts_tls_id(const rlock_opts *o, bool with_name, smart_str *out)
{
	zend_string *const parts[] = { o->tls_ca, o->tls_cert, o->tls_key, o->tls_server_name };

	for (size_t i = 0; i < (with_name ? 4 : 3); i++) {
		smart_str_appendc(out, '\0');
		if (parts[i]) {
			smart_str_append(out, parts[i]);
		}
	}
	smart_str_appendc(out, o->tls_verify_peer ? '1' : '0');
}

/* s, a rediss:// server, keyed by o's TLS options too: a connection verified with one CA
 * (or none) is never taken for one that asks for another. */
static void server_tls_key(const rlock_opts *o, rlock_server *s)
{
	smart_str id = {0};

	smart_str_append(&id, s->id);
	rlock_opts_tls_id(o, true, &id);
	zend_string_release(s->id);
	s->id = smart_str_extract(&id);
}

void rlock_server_with_address(rlock_server *out, const rlock_opts *o, const rlock_server *like, const char *host,
	int port)
{
	memset(out, 0, sizeof(*out));
	out->host = zend_string_init(host, strlen(host), false);
	out->port = port;
	out->db = like->db;
	out->user = like->user ? zend_string_copy(like->user) : NULL;
	out->pass = like->pass ? zend_string_copy(like->pass) : NULL;
	out->tls = o->tls_nodes;
	server_finish(out, false);
	if (out->tls) {
		server_tls_key(o, out);
	}
}

/* A TLS path or name option: NULL when empty, refused when it holds a NUL byte. */
static bool tls_string(zend_string **field, const char *name, const char *ini, uint32_t arg_num)
{
	if (!*field && ini && *ini) {
		*field = zend_string_init(ini, strlen(ini), false);
	}
	if (*field && ZSTR_LEN(*field) == 0) {
		zend_string_release(*field);
		*field = NULL;
	}
	if (*field && memchr(ZSTR_VAL(*field), '\0', ZSTR_LEN(*field))) {
		option_error(arg_num, name, "must not contain NUL bytes");
		return false;
	}
	return true;
}

/* Whether every server of a list (the Cluster's seeds, the Sentinels) is rediss://, none
 * is, or (false, a ValueError thrown) they differ: the nodes they name follow them. */
static bool list_tls(const rlock_server *list, uint32_t n, const char *name, uint32_t arg_num, bool *tls)
{
	for (uint32_t i = 1; i < n; i++) {
		if (list[i].tls != list[0].tls) {
			option_error(arg_num, name, "must be all rediss:// (TLS) or none: entry %u differs from entry 0", i);
			return false;
		}
	}
	*tls = n > 0 && list[0].tls;
	return true;
}

/* Each server of a list into the TLS key (server_tls_key) when it is rediss://; true when
 * one is. */
static bool list_tls_key(const rlock_opts *o, rlock_server *list, uint32_t n)
{
	bool any = false;
	for (uint32_t i = 0; i < n; i++) {
		if (list[i].tls) {
			server_tls_key(o, &list[i]);
			any = true;
		}
	}
	return any;
}

/* The TLS options (and their php.ini defaults) checked, and the rediss:// servers keyed by
 * them; a build without TLS refuses a rediss:// server (RLockException) rather than speak
 * plain text to it. */
static bool tls_finish(rlock_opts *o, uint32_t arg_num, bool verify_given)
{
	bool any;

	if (!tls_string(&o->tls_ca, "tls_ca", RLOCK_G(tls_ca), arg_num)
			|| !tls_string(&o->tls_cert, "tls_cert", RLOCK_G(tls_cert), arg_num)
			|| !tls_string(&o->tls_key, "tls_key", RLOCK_G(tls_key), arg_num)
			|| !tls_string(&o->tls_server_name, "tls_server_name", RLOCK_G(tls_server_name), arg_num)) {
		return false;
	}
	if (!verify_given) {
		o->tls_verify_peer = RLOCK_G(tls_verify_peer);
	}
	if ((o->tls_cert != NULL) != (o->tls_key != NULL)) {
		option_error(arg_num, o->tls_cert ? "tls_key" : "tls_cert", "must be given with \"%s\" (a client certificate and its key)",
			o->tls_cert ? "tls_cert" : "tls_key");
		return false;
	}
	if (!list_tls(o->nodes, o->nnodes, "cluster", arg_num, &o->tls_nodes)
			|| (o->sentinels && !list_tls(o->sentinels, o->nsentinels, "sentinel", arg_num, &o->tls_nodes))) {
		return false;
	}
	/* o->server names the server only without a list (with one, it lends its credentials) */
	any = list_tls_key(o, &o->server, 1) && !o->servers && !o->nodes && !o->sentinels;
	any |= o->tls_nodes;
	any |= list_tls_key(o, o->servers, o->nservers);
	any |= list_tls_key(o, o->nodes, o->nnodes);
	any |= list_tls_key(o, o->sentinels, o->nsentinels);
#ifndef RLOCK_HAVE_TLS
	if (any) {
		zend_throw_exception(rlock_ce_exception, "rediss:// (TLS) is not supported: this build of rlock has no TLS "
			"(hiredis_ssl was not found when it was built; see README.md, TLS)", 0);
		return false;
	}
#else
	(void) any;
#endif
	return true;
}

static rlock_opts *opts_parse(HashTable *options, uint32_t arg_num)
{
	rlock_opts *o = ecalloc(1, sizeof(*o));
	o->refcount = 1;
	o->prefix = zend_string_init(RLOCK_G(prefix), strlen(RLOCK_G(prefix)), false);
	o->ttl = RLOCK_G(ttl);
	o->wait = RLOCK_G(wait);
	o->retry_delay = RLOCK_G(retry_delay);
	o->connect_timeout = RLOCK_G(connect_timeout);
	o->read_timeout = RLOCK_G(read_timeout);
	o->spin_us = RLOCK_G(spin_us);
	o->persistent = RLOCK_G(persistent);
	o->reentrant = RLOCK_G(reentrant);
	o->auto_release = RLOCK_G(auto_release);
	o->fencing = RLOCK_G(fencing);
	o->fair = RLOCK_G(fair);
	o->watchdog = RLOCK_G(watchdog);
	o->sync_replicas = RLOCK_G(sync_replicas);

	zend_string *name;
	zval *v;
	bool server_given = false, replicas_given = false, verify_given = false;
	uint32_t given = 0;
	if (options) {
		ZEND_HASH_FOREACH_STR_KEY_VAL(options, name, v) {
			const rlock_opt_def *def;
			if (!name) {
				zend_argument_value_error(arg_num, "must be an array keyed by option name");
				goto fail;
			}
			if (!(def = find_def(ZSTR_VAL(name), ZSTR_LEN(name)))) {
				zend_argument_value_error(arg_num, "unknown option \"%s\"", ZSTR_VAL(name));
				goto fail;
			}
			ZVAL_DEREF(v);
			if (!set_option(o, def, v, arg_num)) {
				goto fail;
			}
			given |= OPT_BIT(def);
			server_given |= def->kind == OPT_SERVER;
			replicas_given |= def->offset == XtOffsetOf(rlock_opts, sync_replicas);
			verify_given |= def->offset == XtOffsetOf(rlock_opts, tls_verify_peer);
		} ZEND_HASH_FOREACH_END();
	}
	/* an invalid php.ini value throws where it would be used: never a default in its place */
	if (RLOCK_G(ini_invalid) & ~given) {
		ini_invalid_error(RLOCK_G(ini_invalid) & ~given);
		goto fail;
	}
	/* the php.ini lists apply when the options name no server at all */
	bool lists_from_ini = !server_given && !o->servers && !o->nodes && !o->sentinels;
	if (lists_from_ini && (!ini_list(o, "servers", RLOCK_G(servers)) || !ini_list(o, "cluster", RLOCK_G(cluster))
			|| !ini_list(o, "sentinel", RLOCK_G(sentinel)))) {
		goto fail;
	}
	if (!o->service && o->sentinels && RLOCK_G(service) && *RLOCK_G(service)) {
		o->service = zend_string_init(RLOCK_G(service), strlen(RLOCK_G(service)), false);
	}
	if ((o->servers != NULL) + (o->nodes != NULL) + (o->sentinels != NULL) > 1) {
		if (lists_from_ini) {
			zend_value_error("php.ini settings rlock.servers, rlock.cluster and rlock.sentinel exclude each other");
		} else {
			zend_argument_value_error(arg_num, "options \"servers\", \"cluster\" and \"sentinel\" exclude each other");
		}
		goto fail;
	}
	if (server_given && o->servers) {
		zend_argument_value_error(arg_num, "options \"server\" and \"servers\" exclude each other");
		goto fail;
	}
	if ((o->sentinels != NULL) != (o->service != NULL)) {
		if (lists_from_ini && o->sentinels) {
			zend_value_error("php.ini setting rlock.sentinel needs rlock.service (or the option \"service\")");
		} else {
			zend_argument_value_error(arg_num, "options \"sentinel\" and \"service\" go together");
		}
		goto fail;
	}
	if (o->service && ZSTR_LEN(o->service) == 0) {
		zend_argument_value_error(arg_num, "option \"service\" must not be empty");
		goto fail;
	}
	if (o->servers && o->sync_replicas > 0) {
		/* each Redlock master is its own primary: the quorum is what survives a failure. The
		 * php.ini default does not apply there. */
		if (replicas_given) {
			zend_argument_value_error(arg_num, "option \"sync_replicas\" works with \"server\", \"cluster\" or \"sentinel\", not with \"servers\"");
			goto fail;
		}
		o->sync_replicas = 0;
	}
	if (!server_given && !set_server(o, RLOCK_G(server), strlen(RLOCK_G(server)), 0)) {
		goto fail;
	}
	if (!tls_finish(o, arg_num, verify_given)) {
		goto fail;
	}
	o->id = o->servers ? servers_id("redlock", o->servers, o->nservers)
		: o->nodes ? servers_id("cluster", o->nodes, o->nnodes)
		: o->sentinels ? servers_id(ZSTR_VAL(o->service), o->sentinels, o->nsentinels)
		: zend_string_copy(o->server.id);
	return o;

fail:
	rlock_opts_release(o);
	return NULL;
}

/* s as a DSN to show, its password "***". */
static void server_shown(const rlock_server *s, smart_str *out)
{
	if (s->port == 0) {
		smart_str_appends(out, "unix://");
		smart_str_append(out, s->host);
		return;
	}
	smart_str_appends(out, s->tls ? "rediss://" : "redis://");
	if (s->user) {
		smart_str_append(out, s->user);
		smart_str_appendc(out, ':');
	}
	if (s->pass) {
		smart_str_appends(out, "***@");
	}
	smart_str_appends(out, s->label);
	if (s->db) {
		smart_str_appendc(out, '/');
		smart_str_append_long(out, s->db);
	}
}

void rlock_opts_debug(const rlock_opts *o, const char *const *omit, zval *out)
{
	array_init(out);
	for (const rlock_opt_def *def = rlock_opt_defs; def < rlock_opt_defs + OPT_COUNT; def++) {
		const char *field = (const char *) o + def->offset;
		const rlock_server *list;
		smart_str dsn = {0};
		zval shown;
		bool omitted = false;

		for (const char *const *n = omit; n && *n && !omitted; n++) {
			omitted = strcmp(*n, def->name) == 0;
		}
		if (omitted) {
			continue;
		}
		switch (def->kind) {
			case OPT_LONG:
				add_assoc_long(out, def->name, *(const zend_long *) field);
				break;
			case OPT_BOOL:
				add_assoc_bool(out, def->name, *(const bool *) field);
				break;
			case OPT_STRING:
				if (*(zend_string *const *) field) {
					add_assoc_str(out, def->name, zend_string_copy(*(zend_string *const *) field));
				}
				break;
			case OPT_SERVER:
				/* with a list, it only lends its credentials */
				if (!o->servers && !o->nodes && !o->sentinels) {
					server_shown(&o->server, &dsn);
					add_assoc_str(out, def->name, smart_str_extract(&dsn));
				}
				break;
			default:
				if (!(list = *(rlock_server *const *) field)) {
					break;
				}
				array_init(&shown);
				for (uint32_t i = 0; i < (def->kind == OPT_SERVERS ? o->nservers
						: def->kind == OPT_NODES ? o->nnodes : o->nsentinels); i++) {
					server_shown(&list[i], &dsn);
					add_next_index_str(&shown, smart_str_extract(&dsn));
				}
				add_assoc_zval(out, def->name, &shown);
		}
	}
}

/* ---- the options last made, made once ----
 * A request makes its locks from one options array again and again (a literal, a variable
 * kept for them; a fresh RLock per lock): what that array made is kept, with a hold on the
 * array, until php.ini changes or the request ends. The hold makes the array copy-on-write,
 * so the same array is the same options; another array with the same options (built anew
 * each time) is compared element by element. Arrays whose values can change without a copy
 * (a reference in it, an object) are never kept. */
ZEND_TLS struct {
	bool made;            /* made holds the options of of */
	HashTable *of;        /* NULL: no options array */
	rlock_opts *opts;
} last;

/* Whether every value of options, and of the lists in it, is a plain value. */
static bool keepable(HashTable *options, int depth)
{
	zval *v;
	ZEND_HASH_FOREACH_VAL(options, v) {
		if (Z_TYPE_P(v) == IS_ARRAY ? depth > 0 || !keepable(Z_ARRVAL_P(v), depth + 1) : Z_TYPE_P(v) > IS_STRING) {
			return false;
		}
	} ZEND_HASH_FOREACH_END();
	return true;
}

static int differ(const void *a, const void *b)
{
	return !zend_is_identical((zval *) a, (zval *) b);
}

static bool same_options(HashTable *a, HashTable *b)
{
	if (a == b) {
		return true;
	}
	return a && b && zend_hash_num_elements(a) == zend_hash_num_elements(b) && keepable(b, 0)
		&& zend_hash_compare(a, b, differ, true) == 0;
}

void rlock_opts_forget(void)
{
	if (!last.made) {
		return;
	}
	if (last.of) {
		zend_array_release(last.of);
	}
	rlock_opts_release(last.opts);
	memset(&last, 0, sizeof(last));
}

rlock_opts *rlock_opts_create(HashTable *options, uint32_t arg_num)
{
	if (last.made && same_options(last.of, options)) {
		return rlock_opts_addref(last.opts);
	}
	rlock_opts *o = opts_parse(options, arg_num);
	if (o && (!options || keepable(options, 0))) {
		rlock_opts_forget();
		if (options) {
			GC_TRY_ADDREF(options);
		}
		last.of = options;
		last.opts = rlock_opts_addref(o);
		last.made = true;
	}
	return o;
}

zend_string *rlock_opts_lock_id(const rlock_opts *o, const char *kind, zend_string *key)
{
	size_t klen = strlen(kind) + 1;  /* with its NUL, which ends it */
	zend_string *id = zend_string_alloc(ZSTR_LEN(o->id) + 1 + klen + ZSTR_LEN(key), 0);
	char *p = ZSTR_VAL(id);
	memcpy(p, ZSTR_VAL(o->id), ZSTR_LEN(o->id));
	p += ZSTR_LEN(o->id);
	*p++ = '\0';
	memcpy(p, kind, klen);
	memcpy(p + klen, ZSTR_VAL(key), ZSTR_LEN(key) + 1);
	return id;
}

rlock_opts *rlock_opts_addref(rlock_opts *o)
{
	o->refcount++;
	return o;
}

void rlock_opts_release(rlock_opts *o)
{
	if (--o->refcount > 0) {
		return;
	}
	rlock_server_free(&o->server, false);
	server_list_free(o->servers, o->nservers);
	server_list_free(o->nodes, o->nnodes);
	server_list_free(o->sentinels, o->nsentinels);
	if (o->service) {
		zend_string_release(o->service);
	}
	if (o->id) {
		zend_string_release(o->id);
	}
	zend_string_release(o->prefix);
	zend_string *const tls[] = { o->tls_ca, o->tls_cert, o->tls_key, o->tls_server_name };
	for (size_t i = 0; i < sizeof(tls) / sizeof(tls[0]); i++) {
		if (tls[i]) {
			zend_string_release(tls[i]);
		}
	}
	efree(o);
}
