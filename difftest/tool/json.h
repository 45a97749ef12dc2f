/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON writer for difftest's reports: objects, arrays, strings, numbers,
 * booleans and null, indented two spaces a level. Each value inside an object
 * takes its key; inside an array the key is NULL. Strings are escaped as RFC 8259
 * wants (", \, control characters), and a byte that is not part of valid UTF-8
 * becomes U+FFFD, so the output is valid JSON whatever the input files hold.
 */
#ifndef DIFFTEST_JSON_H
#define DIFFTEST_JSON_H

#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	int count[JSON_MAX_DEPTH]; /* values written so far at each open level */
	char close[JSON_MAX_DEPTH]; /* and the bracket that closes it */
};

void json_init(struct json *j, FILE *f);
void json_object(struct json *j, const char *key);	/* opens { */
void json_array(struct json *j, const char *key);	/* opens [ */
void json_end(struct json *j);				/* closes the innermost */
/* @v NULL: null */
void json_string(struct json *j, const char *key, const char *v);
/* the first @len bytes of @v */
void json_stringn(struct json *j, const char *key, const char *v, size_t len);
void json_int(struct json *j, const char *key, long long v);
/* @v with @decimals digits after the point; not finite: null */
void json_double(struct json *j, const char *key, double v, int decimals);
void json_bool(struct json *j, const char *key, int v);
void json_null(struct json *j, const char *key);
/* Closes every open level and ends the text with a newline. */
void json_finish(struct json *j);

#endif
