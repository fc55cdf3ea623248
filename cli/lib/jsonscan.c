// SPDX-License-Identifier: GPL-2.0
/* jsonscan.c - members of a JSON object, elements of an array, by walking
 * its text (jsonscan.h). */
#include <string.h>
#include "jsonscan.h"

#define MAX_DEPTH	64

static size_t skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/* Past the string opening at s[i]; 0 when unterminated */
static size_t skip_string(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
		else if ((unsigned char)s[i] < 0x20)
			return 0;
	}
	return 0;
}

/* Past the value at s[i] (white space before it skipped); 0 when there
 * is none or it is malformed */
static size_t skip_value(const char *s, size_t n, size_t i, int depth)
{
	char close;

	i = skip_ws(s, n, i);
	if (i >= n)
		return 0;
	if (s[i] == '"')
		return skip_string(s, n, i);
	if (s[i] != '{' && s[i] != '[') {
		/* a number, true, false or null: its characters */
		size_t j = i;

		while (j < n && strchr("0123456789+-.eEtruefalsn", s[j]) && s[j])
			j++;
		return j > i ? j : 0;
	}
	if (depth >= MAX_DEPTH)
		return 0;
	close = s[i] == '{' ? '}' : ']';
	i = skip_ws(s, n, i + 1);
	if (i < n && s[i] == close)
		return i + 1;
	for (;;) {
		if (close == '}') {
			i = skip_ws(s, n, i);
			if (i >= n || s[i] != '"' || !(i = skip_string(s, n, i)))
				return 0;
			i = skip_ws(s, n, i);
			if (i >= n || s[i] != ':')
				return 0;
			i++;
		}
		if (!(i = skip_value(s, n, i, depth + 1)))
			return 0;
		i = skip_ws(s, n, i);
		if (i < n && s[i] == close)
			return i + 1;
		if (i >= n || s[i] != ',')
			return 0;
		i++;
	}
}

/* Where the next item of the object or array (open, close) at text
 * starts, *pos being 0 before the first: 1 with *at, 0 after the last
 * (*pos set to n), -1 when malformed */
static int next_item(const char *text, size_t n, size_t *pos, char open, char close, size_t *at)
{
	size_t i = *pos;

	if (i == 0) {
		i = skip_ws(text, n, 0);
		if (i >= n || text[i] != open)
			return -1;
		i = skip_ws(text, n, i + 1);
		if (i < n && text[i] == close) {
			*pos = n;
			return 0;
		}
	} else if (i >= n) {
		return 0;
	} else {
		/* after the last item: ',' or the end */
		i = skip_ws(text, n, i);
		if (i < n && text[i] == close) {
			*pos = n;
			return 0;
		}
		if (i >= n || text[i] != ',')
			return -1;
		i = skip_ws(text, n, i + 1);
	}
	*at = i;
	return 1;
}

int uct_json_next(const char *obj, size_t n, size_t *pos, struct uct_json_member *m)
{
	size_t i, k, v;
	int r = next_item(obj, n, pos, '{', '}', &i);

	if (r != 1)
		return r;
	if (i >= n || obj[i] != '"' || !(k = skip_string(obj, n, i)))
		return -1;
	m->key = obj + i + 1;
	m->key_len = k - i - 2;
	i = skip_ws(obj, n, k);
	if (i >= n || obj[i] != ':')
		return -1;
	i = skip_ws(obj, n, i + 1);
	if (!(v = skip_value(obj, n, i, 1)))
		return -1;
	m->val = obj + i;
	m->val_len = v - i;
	*pos = v;
	return 1;
}

int uct_json_elem(const char *arr, size_t n, size_t *pos, const char **val, size_t *val_len)
{
	size_t i, v;
	int r = next_item(arr, n, pos, '[', ']', &i);

	if (r != 1)
		return r;
	if (!(v = skip_value(arr, n, i, 1)))
		return -1;
	*val = arr + i;
	*val_len = v - i;
	*pos = v;
	return 1;
}

bool uct_json_get(const char *obj, size_t n, const char *key, const char **val,
		  size_t *val_len)
{
	struct uct_json_member m;
	size_t pos = 0, k = strlen(key);

	while (uct_json_next(obj, n, &pos, &m) == 1)
		if (m.key_len == k && !memcmp(m.key, key, k)) {
			*val = m.val;
			*val_len = m.val_len;
			return true;
		}
	return false;
}

bool uct_json_plain_string(const char *val, size_t val_len, const char **s, size_t *len)
{
	if (val_len < 2 || val[0] != '"' || val[val_len - 1] != '"' ||
	    memchr(val + 1, '\\', val_len - 2))
		return false;
	*s = val + 1;
	*len = val_len - 2;
	return true;
}
