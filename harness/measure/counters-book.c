/*
 * counters-book.c
 *	Range bookkeeping of the counter-data image (counters-book.h says why).
 */
#include <stdio.h>

#include "harness/measure/counters-book.h"

void tcp_ctr_book_init(tcp_ctr_book_t *b, int cap, int max_cap, int append)
{
	b->max_cap = max_cap < 1 ? 1 : max_cap;
	b->cap = cap < 1 ? 1 : cap > b->max_cap ? b->max_cap : cap;
	b->append = append != 0;
	b->used = -1;	/* not initialised */
	b->reserve = 1;
	b->inits = 0;
}

int tcp_ctr_book_need_init(const tcp_ctr_book_t *b)
{
	return !b->append || b->used < 0 || b->cap - b->used < b->reserve;
}

void tcp_ctr_book_did_init(tcp_ctr_book_t *b)
{
	b->used = 0;
	b->inits++;
}

void tcp_ctr_book_resize(tcp_ctr_book_t *b, int cap)
{
	b->cap = cap < 1 ? 1 : cap > b->max_cap ? b->max_cap : cap;
	b->used = -1;
}

tcp_ctr_book_verdict_t tcp_ctr_book_after(tcp_ctr_book_t *b, size_t total, size_t dropped,
					  int *first, int *count, char *why, size_t len)
{
	int before = b->used;

	*first = *count = 0;
	if (before < 0) {
		snprintf(why, len, "counter pass: the counter-data image was not initialised");
		return TCP_BOOK_FAIL;
	}
	b->used = -1;	/* unless OK below: the next point starts on a fresh image */
	if (dropped > 0) {
		if (before > 0)	/* no room after the earlier points' ranges */
			return TCP_BOOK_RETRY;
		size_t need = total + dropped;
		if (need > (size_t)b->max_cap) {
			snprintf(why, len, "counter pass: run() launched %zu kernels, at most %d are counted",
				 need, b->max_cap);
			return TCP_BOOK_FAIL;
		}
		int cap = b->cap;
		while ((size_t)cap < need)
			cap *= 2;
		*count = cap > b->max_cap ? b->max_cap : cap;
		return TCP_BOOK_GROW;
	}
	if (total > (size_t)b->cap || total < (size_t)before) {
		snprintf(why, len, "counter pass: the image holds %zu ranges after this point, %d before it "
			 "(room for %d): CUPTI did not append", total, before, b->cap);
		return TCP_BOOK_FAIL;
	}
	if (total == (size_t)before) {
		snprintf(why, len, "counter pass: run() launched no kernel");
		b->used = before;	/* nothing was added: the image is as it was */
		return TCP_BOOK_FAIL;
	}
	*first = before;
	*count = (int)total - before;
	b->used = (int)total;
	b->reserve = *count;	/* the next point is most likely the same probe */
	return TCP_BOOK_OK;
}
