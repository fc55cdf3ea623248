/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mhd.h - libmicrohttpd, loaded only when --listen asks for it.
 *
 * Linked, the library and its GnuTLS closure would be mapped and
 * relocated in every run of ucounttop: resident memory for the live
 * view, trace and check, which never serve HTTP. Loaded with dlopen() by
 * uct_mhd_load() instead, they cost only --listen. The calls go through uct_mhd, whose members have the types
 * of the functions <microhttpd.h> declares.
 */
#ifndef UCT_MHD_H
#define UCT_MHD_H

#include <microhttpd.h>

/* X(name): MHD_name, the functions listen.c calls */
#define UCT_MHD_FUNCS(X)						\
	X(start_daemon) X(stop_daemon) X(run) X(get_timeout)		\
	X(get_daemon_info) X(create_response_from_buffer)		\
	X(create_response_from_buffer_with_free_callback)		\
	X(add_response_header) X(destroy_response) X(queue_response)	\
	X(lookup_connection_value) X(get_connection_info)		\
	X(is_feature_supported) X(quiesce_daemon)			\
	X(suspend_connection) X(resume_connection)

struct uct_mhd {
#define UCT_MHD_MEMBER(n) __typeof__(MHD_##n) *n;
	UCT_MHD_FUNCS(UCT_MHD_MEMBER)
#undef UCT_MHD_MEMBER
};

extern struct uct_mhd uct_mhd;

/*
 * Load libmicrohttpd (its soname at build time, UCT_MHD_SONAME) and fill
 * uct_mhd; again, nothing. 0, or UCT_EXIT_KERNEL with msg saying what is
 * missing and which package has it.
 */
int uct_mhd_load(char *msg, size_t len);

#endif /* UCT_MHD_H */
