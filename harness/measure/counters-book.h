/*
 * counters-book.h
 *	Which ranges of the CUPTI counter-data image belong to which point: the
 *	bookkeeping of harness/measure/counters-session.cc, kept apart from CUPTI
 *	so that it is tested on the host (tests/test-counters.c).
 *
 *	Re-initialising the image costs ~7 ms a point on an H200 for 256 ranges
 *	(counters-session.cc).  Two ways out, both decided here:
 *	  append  the image is initialised once and each point's ranges follow
 *	          the last point's; only this point's ranges [first, first+count)
 *	          are evaluated; a fresh image only when the room left is less
 *	          than the last point took (a sweep runs a probe's points in a
 *	          row; one that does not fit runs again, below).  Only where the
 *	          worker's self-test proved that CUPTI appends (counters-session.cc)
 *	  fresh   the image is re-initialised before every point, sized for the
 *	          kernels one run() launches (small), grown when CUPTI reports
 *	          dropped ranges
 *	Either way a point whose ranges were dropped is measured again on a
 *	fresh image, grown to what it needs (at most max_cap ranges).
 */
#ifndef TCP_COUNTERS_BOOK_H
#define TCP_COUNTERS_BOOK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	int cap;	/* ranges the image holds */
	int max_cap;	/* the most it may grow to (TCP_COUNTERS_MAX_RANGES) */
	int append;	/* 1: points append their ranges; 0: fresh image per point */
	int used;	/* ranges in the image now (0 right after an initialise) */
	int reserve;	/* ranges the last point took: room kept for the next */
	int inits;	/* initialisations so far (for tests and notes) */
} tcp_ctr_book_t;

/* An image of `cap` ranges (1 <= cap <= max_cap), not yet initialised. */
void tcp_ctr_book_init(tcp_ctr_book_t *b, int cap, int max_cap, int append);

/* Before a point: 1 when the image must be initialised first (fresh mode,
 * not initialised, or less room left than the last point took). */
int tcp_ctr_book_need_init(const tcp_ctr_book_t *b);

/* The image was (re)initialised: empty, `cap` ranges of room. */
void tcp_ctr_book_did_init(tcp_ctr_book_t *b);

typedef enum {
	TCP_BOOK_OK = 0,	/* *first, *count: this point's ranges */
	TCP_BOOK_RETRY,		/* ranges dropped in a used image: measure again on a fresh one */
	TCP_BOOK_GROW,		/* dropped in a fresh image: grow to *count ranges, measure again */
	TCP_BOOK_FAIL		/* why says why */
} tcp_ctr_book_verdict_t;

/*
 * tcp_ctr_book_after()
 *	After DecodeData of one point: `total` = numTotalRanges of the image,
 *	`dropped` = numOfRangeDropped.  OK: *first and *count are the point's
 *	ranges and the book moves on; RETRY/GROW: the caller initialises (GROW:
 *	after re-sizing to *count ranges, tcp_ctr_book_resize) and runs the point
 *	again; FAIL: a kernel-count limit or an image that does not add up.
 */
tcp_ctr_book_verdict_t tcp_ctr_book_after(tcp_ctr_book_t *b, size_t total, size_t dropped,
					  int *first, int *count, char *why, size_t len);

/* The image was re-sized to cap ranges (and must be initialised). */
void tcp_ctr_book_resize(tcp_ctr_book_t *b, int cap);

#ifdef __cplusplus
}
#endif
#endif
