/*
 * netdelay: hold every packet of one NFQUEUE queue for a fixed time, then let it pass: the
 * delay of `tc qdisc ... netem delay`, for kernels built without sch_netem. NetworkTest
 * builds it and runs it inside a server's network namespace behind
 *
 *   iptables -A INPUT -i IF -j NFQUEUE --queue-num N
 *
 * Packets leave in the order they came (one fixed delay keeps a FIFO sorted). Speaks
 * nfnetlink_queue over a plain netlink socket (no libnetfilter_queue).
 *
 *   netdelay QUEUE_NUM DELAY_MS     prints "ready" once bound; runs until killed
 */

#include <arpa/inet.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_HELD 65536

static int nl;
static uint16_t queue;
static struct {
	uint32_t id;	/* network order, as received */
	int64_t due;	/* ms, CLOCK_MONOTONIC */
} held[MAX_HELD];
static size_t head, count;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void put_attr(char *buf, size_t *len, uint16_t type, const void *data, uint16_t size)
{
	struct nlattr *a = (struct nlattr *) (buf + *len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + size;
	memcpy(buf + *len + NLA_HDRLEN, data, size);
	*len += NLA_ALIGN(a->nla_len);
}

/* One nfnetlink_queue message of type msg with one attribute; 0 or -1. */
static int send_msg(uint16_t msg, uint16_t flags, uint16_t type, const void *data, uint16_t size)
{
	char buf[256] = {0};
	struct nlmsghdr *h = (struct nlmsghdr *) buf;
	struct nfgenmsg *g = (struct nfgenmsg *) (buf + NLMSG_HDRLEN);
	size_t len = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*g));

	h->nlmsg_type = (NFNL_SUBSYS_QUEUE << 8) | msg;
	h->nlmsg_flags = NLM_F_REQUEST | flags;
	g->nfgen_family = AF_UNSPEC;
	g->version = NFNETLINK_V0;
	g->res_id = htons(queue);
	put_attr(buf, &len, type, data, size);
	h->nlmsg_len = len;
	return send(nl, buf, len, 0) == (ssize_t) len ? 0 : -1;
}

/* Send a config message and read its acknowledgement; 0 or -1. */
static int configure(uint16_t type, const void *data, uint16_t size)
{
	char buf[4096];
	ssize_t n;
	struct nlmsghdr *h = (struct nlmsghdr *) buf;

	if (send_msg(NFQNL_MSG_CONFIG, NLM_F_ACK, type, data, size) < 0) {
		return -1;
	}
	n = recv(nl, buf, sizeof(buf), 0);
	if (n < (ssize_t) NLMSG_HDRLEN || h->nlmsg_type != NLMSG_ERROR) {
		return -1;
	}
	return ((struct nlmsgerr *) NLMSG_DATA(h))->error == 0 ? 0 : -1;
}

static void accept_due(int64_t now)
{
	struct nfqnl_msg_verdict_hdr v;

	while (count > 0 && held[head].due <= now) {
		v.verdict = htonl(NF_ACCEPT);
		v.id = held[head].id;
		send_msg(NFQNL_MSG_VERDICT, 0, NFQA_VERDICT_HDR, &v, sizeof(v));
		head = (head + 1) % MAX_HELD;
		count--;
	}
}

/* Take the packet ids out of one datagram of queued packets. */
static void hold(const char *buf, ssize_t n, int64_t due)
{
	const struct nlmsghdr *h;

	for (h = (const struct nlmsghdr *) buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
		const char *p = (const char *) NLMSG_DATA(h) + NLMSG_ALIGN(sizeof(struct nfgenmsg));
		const char *end = (const char *) h + h->nlmsg_len;

		if (h->nlmsg_type != ((NFNL_SUBSYS_QUEUE << 8) | NFQNL_MSG_PACKET)) {
			continue;
		}
		while (p + NLA_HDRLEN <= end) {
			const struct nlattr *a = (const struct nlattr *) p;

			if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end) {
				break;
			}
			if ((a->nla_type & NLA_TYPE_MASK) == NFQA_PACKET_HDR
			    && a->nla_len >= NLA_HDRLEN + sizeof(struct nfqnl_msg_packet_hdr)) {
				const struct nfqnl_msg_packet_hdr *ph = (const void *) (p + NLA_HDRLEN);

				if (count == MAX_HELD) {
					accept_due(INT64_MAX);  /* never expected: let the oldest go */
				}
				held[(head + count) % MAX_HELD].id = ph->packet_id;
				held[(head + count) % MAX_HELD].due = due;
				count++;
				break;
			}
			p += NLA_ALIGN(a->nla_len);
		}
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	struct nfqnl_msg_config_cmd cmd = { .command = NFQNL_CFG_CMD_BIND, .pf = htons(AF_INET) };
	struct nfqnl_msg_config_params params = { .copy_range = 0, .copy_mode = NFQNL_COPY_META };
	static char buf[65536];
	int delay, rcvbuf = 4 << 20;

	if (argc != 3) {
		fprintf(stderr, "usage: netdelay QUEUE_NUM DELAY_MS\n");
		return 2;
	}
	queue = (uint16_t) atoi(argv[1]);
	delay = atoi(argv[2]);
	nl = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
	if (nl < 0 || bind(nl, (struct sockaddr *) &addr, sizeof(addr)) < 0) {
		perror("netdelay: netlink");
		return 1;
	}
	setsockopt(nl, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (configure(NFQA_CFG_CMD, &cmd, sizeof(cmd)) < 0
	    || configure(NFQA_CFG_PARAMS, &params, sizeof(params)) < 0) {
		fprintf(stderr, "netdelay: cannot bind queue %u (nfnetlink_queue)\n", queue);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		struct pollfd pfd = { .fd = nl, .events = POLLIN };
		int64_t now = now_ms();
		int wait = count > 0 ? (int) (held[head].due > now ? held[head].due - now : 0) : -1;
		ssize_t n;

		if (poll(&pfd, 1, wait) > 0) {
			n = recv(nl, buf, sizeof(buf), MSG_DONTWAIT);
			if (n > 0) {
				hold(buf, n, now_ms() + delay);
			} else if (n < 0 && errno != EAGAIN && errno != ENOBUFS && errno != EINTR) {
				perror("netdelay: recv");
				return 1;
			}
		}
		accept_due(now_ms());
	}
}
