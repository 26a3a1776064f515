/* Options: php.ini defaults and the constructor's array into one validated struct. */

#include "php.h"
#include "php_rlock.h"
#include "options.h"
#include "zend_smart_str.h"

typedef enum { OPT_POSITIVE, OPT_NON_NEGATIVE, OPT_BOOL, OPT_STRING, OPT_SERVER } rlock_opt_kind;

typedef struct {
	const char *name;
	size_t name_len;
	rlock_opt_kind kind;
	size_t offset;
} rlock_opt_def;

#define OPT(name, kind, field) { name, sizeof(name) - 1, kind, XtOffsetOf(rlock_opts, field) }

static const rlock_opt_def rlock_opt_defs[] = {
	OPT("server", OPT_SERVER, server),
	OPT("ttl", OPT_POSITIVE, ttl),
	OPT("wait", OPT_NON_NEGATIVE, wait),
	OPT("retry_delay", OPT_NON_NEGATIVE, retry_delay),
	OPT("prefix", OPT_STRING, prefix),
	OPT("connect_timeout", OPT_POSITIVE, connect_timeout),
	OPT("read_timeout", OPT_POSITIVE, read_timeout),
	OPT("persistent", OPT_BOOL, persistent),
	OPT("reentrant", OPT_BOOL, reentrant),
	OPT("auto_release", OPT_BOOL, auto_release),
	OPT("fencing", OPT_BOOL, fencing),
	OPT("fair", OPT_BOOL, fair),
	OPT("watchdog", OPT_BOOL, watchdog),
};

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

static bool parse_number(const char *s, size_t len, zend_long max, zend_long *out)
{
	zend_long v = 0;
	if (len == 0 || len > 10) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') {
			return false;
		}
		v = v * 10 + (s[i] - '0');
	}
	if (v > max) {
		return false;
	}
	*out = v;
	return true;
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

zend_result rlock_server_parse(const char *dsn, size_t len, rlock_server *out, bool persistent, const char **why)
{
	const char *p = dsn, *end = dsn + len;
	memset(out, 0, sizeof(*out));
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
	} else if (len > 6 && strncmp(p, "tcp://", 6) == 0) {
		p += 6;
	} else {
		*why = "must be redis://[user:pass@]host[:port][/db], tcp://host:port or unix:///path";
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
		if (*p != ':' || !parse_number(p + 1, auth_end - p - 1, 65535, &port) || port == 0) {
			*why = "has an invalid port";
			goto fail;
		}
	}
	zend_long db = 0;
	if (auth_end < end) {
		const char *d = auth_end + 1;
		if (d < end && !parse_number(d, end - d, 1000000, &db)) {
			*why = "has an invalid database number";
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

void rlock_server_free(rlock_server *s, bool persistent)
{
	if (s->host) zend_string_release_ex(s->host, persistent);
	if (s->user) zend_string_release_ex(s->user, persistent);
	if (s->pass) zend_string_release_ex(s->pass, persistent);
	if (s->id) zend_string_release_ex(s->id, persistent);
	memset(s, 0, sizeof(*s));
}

static bool set_server(rlock_opts *o, const char *dsn, size_t len, uint32_t arg_num)
{
	const char *why;
	rlock_server s;
	if (rlock_server_parse(dsn, len, &s, false, &why) == FAILURE) {
		if (arg_num) {
			zend_argument_value_error(arg_num, "option \"server\" %s", why);
		} else {
			zend_value_error("php.ini setting rlock.server %s", why);
		}
		return false;
	}
	rlock_server_free(&o->server, false);
	o->server = s;
	return true;
}

/* One entry of $options into o. */
static bool set_option(rlock_opts *o, const rlock_opt_def *def, zval *v, uint32_t arg_num)
{
	void *field = (char *) o + def->offset;

	switch (def->kind) {
		case OPT_POSITIVE:
		case OPT_NON_NEGATIVE:
			if (Z_TYPE_P(v) != IS_LONG) {
				zend_argument_type_error(arg_num, "option \"%s\" must be of type int, %s given",
					def->name, zend_zval_type_name(v));
				return false;
			}
			if (def->kind == OPT_POSITIVE && Z_LVAL_P(v) <= 0) {
				zend_argument_value_error(arg_num, "option \"%s\" must be greater than 0", def->name);
				return false;
			}
			if (Z_LVAL_P(v) < 0) {
				zend_argument_value_error(arg_num, "option \"%s\" must be greater than or equal to 0", def->name);
				return false;
			}
			*(zend_long *) field = Z_LVAL_P(v);
			return true;
		case OPT_BOOL:
			if (Z_TYPE_P(v) != IS_TRUE && Z_TYPE_P(v) != IS_FALSE) {
				zend_argument_type_error(arg_num, "option \"%s\" must be of type bool, %s given",
					def->name, zend_zval_type_name(v));
				return false;
			}
			*(bool *) field = Z_TYPE_P(v) == IS_TRUE;
			return true;
		case OPT_STRING:
		case OPT_SERVER:
			if (Z_TYPE_P(v) != IS_STRING) {
				zend_argument_type_error(arg_num, "option \"%s\" must be of type string, %s given",
					def->name, zend_zval_type_name(v));
				return false;
			}
			if (def->kind == OPT_SERVER) {
				return set_server(o, Z_STRVAL_P(v), Z_STRLEN_P(v), arg_num);
			}
			zend_string_release(*(zend_string **) field);
			*(zend_string **) field = zend_string_copy(Z_STR_P(v));
			return true;
	}
	return false;
}

rlock_opts *rlock_opts_create(HashTable *options, uint32_t arg_num)
{
	rlock_opts *o = ecalloc(1, sizeof(*o));
	o->refcount = 1;
	o->prefix = zend_string_init(RLOCK_G(prefix), strlen(RLOCK_G(prefix)), false);
	o->ttl = RLOCK_G(ttl);
	o->wait = RLOCK_G(wait);
	o->retry_delay = RLOCK_G(retry_delay);
	o->connect_timeout = RLOCK_G(connect_timeout);
	o->read_timeout = RLOCK_G(read_timeout);
	o->persistent = RLOCK_G(persistent);
	o->reentrant = RLOCK_G(reentrant);
	o->auto_release = RLOCK_G(auto_release);
	o->fencing = RLOCK_G(fencing);
	o->fair = RLOCK_G(fair);
	o->watchdog = RLOCK_G(watchdog);

	zend_string *name;
	zval *v;
	bool server_given = false;
	if (options) {
		ZEND_HASH_FOREACH_STR_KEY_VAL(options, name, v) {
			const rlock_opt_def *def = NULL;
			if (!name) {
				zend_argument_value_error(arg_num, "must be an array keyed by option name");
				goto fail;
			}
			for (size_t i = 0; i < sizeof(rlock_opt_defs) / sizeof(rlock_opt_defs[0]); i++) {
				if (zend_string_equals_cstr(name, rlock_opt_defs[i].name, rlock_opt_defs[i].name_len)) {
					def = &rlock_opt_defs[i];
					break;
				}
			}
			if (!def) {
				zend_argument_value_error(arg_num, "unknown option \"%s\"", ZSTR_VAL(name));
				goto fail;
			}
			ZVAL_DEREF(v);
			if (!set_option(o, def, v, arg_num)) {
				goto fail;
			}
			server_given |= def->kind == OPT_SERVER;
		} ZEND_HASH_FOREACH_END();
	}
	if (!server_given && !set_server(o, RLOCK_G(server), strlen(RLOCK_G(server)), 0)) {
		goto fail;
	}
	return o;

fail:
	rlock_opts_release(o);
	return NULL;
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
	zend_string_release(o->prefix);
	efree(o);
}
