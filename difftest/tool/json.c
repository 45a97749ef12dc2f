// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer of json.h. Nesting deeper than JSON_MAX_DEPTH is a bug of the
 * caller: it aborts rather than write a text that does not parse.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

static void indent(struct json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* The length of the well-formed UTF-8 sequence at @s (of @n bytes), 0 if none is. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void put_string(FILE *f, const char *v, size_t n)
{
	const unsigned char *s = (const unsigned char *)v;

	fputc('"', f);
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(s + i, n - i);

		if (s[i] == '"' || s[i] == '\\') {
			fputc('\\', f);
			fputc(s[i], f);
		} else if (s[i] == '\n') {
			fputs("\\n", f);
		} else if (s[i] == '\t') {
			fputs("\\t", f);
		} else if (s[i] < 0x20 || s[i] == 0x7f) {
			fprintf(f, "\\u%04x", s[i]);
		} else if (!len) {
			fputs("\\ufffd", f);
			len = 1;
		} else {
			fwrite(s + i, 1, len, f);
		}
		i += len ? len : 1;
	}
	fputc('"', f);
}

/* Before a value: the comma after the one before, the line, the key. */
static void begin_value(struct json *j, const char *key)
{
	if (j->depth && j->count[j->depth - 1]++)
		fputc(',', j->f);
	if (j->depth)
		indent(j);
	if (key) {
		put_string(j->f, key, strlen(key));
		fputs(": ", j->f);
	}
}

static void open_level(struct json *j, const char *key, char c)
{
	begin_value(j, key);
	if (j->depth == JSON_MAX_DEPTH)
		abort();
	fputc(c, j->f);
	j->close[j->depth] = c == '{' ? '}' : ']';
	j->count[j->depth++] = 0;
}

void json_object(struct json *j, const char *key)
{
	open_level(j, key, '{');
}

void json_array(struct json *j, const char *key)
{
	open_level(j, key, '[');
}

void json_end(struct json *j)
{
	int empty;

	if (!j->depth)
		abort();
	empty = !j->count[j->depth - 1];
	j->depth--;
	if (!empty)
		indent(j);
	fputc(j->close[j->depth], j->f);
}

void json_stringn(struct json *j, const char *key, const char *v, size_t len)
{
	begin_value(j, key);
	put_string(j->f, v, len);
}

void json_string(struct json *j, const char *key, const char *v)
{
	if (!v) {
		json_null(j, key);
		return;
	}
	json_stringn(j, key, v, strlen(v));
}

void json_int(struct json *j, const char *key, long long v)
{
	begin_value(j, key);
	fprintf(j->f, "%lld", v);
}

void json_double(struct json *j, const char *key, double v, int decimals)
{
	if (!isfinite(v)) {
		json_null(j, key);
		return;
	}
	begin_value(j, key);
	fprintf(j->f, "%.*f", decimals, v);
}

void json_bool(struct json *j, const char *key, int v)
{
	begin_value(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	begin_value(j, key);
	fputs("null", j->f);
}

void json_finish(struct json *j)
{
	while (j->depth)
		json_end(j);
	fputc('\n', j->f);
}
