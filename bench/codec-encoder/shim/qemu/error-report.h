/*
 * QEMU's error_report() and warn_report() for building hw/misc/jpeg_encoder.c
 * outside QEMU (bench/codec-encoder): the message on stderr.
 */
#ifndef BENCH_QEMU_ERROR_REPORT_H
#define BENCH_QEMU_ERROR_REPORT_H

#define error_report(fmt, ...) fprintf(stderr, fmt "\n", ## __VA_ARGS__)
#define warn_report(fmt, ...) fprintf(stderr, "warning: " fmt "\n", ## __VA_ARGS__)

#endif
