/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonscan.h - members of a JSON object, found by walking the text, not
 * by searching it: a key nested deeper (a label, an environment
 * variable a tenant chose) never passes for a top-level one. Reads
 * engines' state files (Docker's config.v2.json, an OCI bundle's
 * config.json, containers/storage's containers.json); nothing is
 * decoded but strings without escapes.
 */
#ifndef UCT_JSONSCAN_H
#define UCT_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>

/* A member of an object: its key's bytes (between the quotes, escapes
 * as written) and its value's (the whole value, quotes included) */
struct uct_json_member {
	const char *key, *val;
	size_t key_len, val_len;
};

/*
 * The next member of the object whose text is the n bytes at obj (white
 * space, then '{'); *pos is 0 before the first call. 1 with m set, 0
 * after the last member, -1 when the text is no well-formed object
 * (nesting deeper than 64 counts as not).
 */
int uct_json_next(const char *obj, size_t n, size_t *pos, struct uct_json_member *m);

/*
 * The next element of the array whose text is the n bytes at arr (white
 * space, then '['), as uct_json_next() walks an object: 1 with *val,
 * *val_len set (the whole value), 0 after the last, -1 when malformed.
 */
int uct_json_elem(const char *arr, size_t n, size_t *pos, const char **val, size_t *val_len);

/* The value of obj's member named key (its first), as uct_json_next()
 * gives it; false when there is none or the text is malformed */
bool uct_json_get(const char *obj, size_t n, const char *key, const char **val,
		  size_t *val_len);

/* A value that is a string without escapes: its bytes (between the
 * quotes) in *s, *len; false for anything else */
bool uct_json_plain_string(const char *val, size_t val_len, const char **s, size_t *len);

#endif /* UCT_JSONSCAN_H */
