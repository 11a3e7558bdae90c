/*
 * exit.h
 *	tcprobe's exit statuses (docs/exit-codes.md): one table for every
 *	command, kept in the lowest layer so that the engines of every layer
 *	(the sweep, compare, fleet, report) return them without including each
 *	other.
 */
#ifndef TCP_EXIT_H
#define TCP_EXIT_H

#define TCP_EXIT_OK		0
#define TCP_EXIT_POINTS		1
#define TCP_EXIT_USAGE		2
#define TCP_EXIT_NO_GPU		3
#define TCP_EXIT_NO_ARCH	4
#define TCP_EXIT_DRIVER		5
#define TCP_EXIT_RESULTS_RO	6
#define TCP_EXIT_RESULTS_FULL	7
#define TCP_EXIT_NO_TOOL	8	/* `report`: gnuplot missing */
#define TCP_EXIT_INCOMPLETE	9	/* `compare`, `fleet`: points OK in the reference are missing */
#define TCP_EXIT_BUSY		10	/* `run --require-idle`: other work on the GPU */
#define TCP_EXIT_INTERRUPTED	130

#endif /* TCP_EXIT_H */
