/*
 * encoder-bench: host throughput of the codec model's JPEG encoder
 * (hw/misc/jpeg_encoder.c of the patched QEMU tree, built unchanged)
 * next to libjpeg-turbo, on the same frames.
 *
 *   encoder-bench [-q QUALITY] [-t SECONDS] [-s SEED] [-o DIR] [-e ENC]
 *                 [CASE...]
 *
 * CASE is WIDTHxHEIGHT:FORMAT, FORMAT yuyv or nv12 (default: 640x480:yuyv
 * 640x480:nv12 1280x720:yuyv 1280x720:nv12).  Each frame is a pattern of
 * gradients, bars and noise (seeded, the same on every machine), split
 * into Y, Cb and Cr planes the way hw/misc/s5pv210_codec.c does
 * (4:2:2 for YUYV, 4:2:0 for NV12), then encoded at QUALITY (default 90,
 * as the qtests and guest tests use) by
 *
 *   model     jpeg_encoder_encode() into a new GByteArray, as the codec's
 *             worker thread does;
 *   turbo     libjpeg-turbo through the libjpeg API: raw (already
 *             subsampled) Y'CbCr input, the same planes, default
 *             integer DCT (JDCT_ISLOW), the Annex K Huffman tables
 *             (no optimize_coding), the same quantisation tables;
 *   turbo-fl  the same with libjpeg-turbo's float DCT (JDCT_FLOAT), the
 *             arithmetic of the model's own encoder before it used
 *             libjpeg.
 *
 * Since the model encodes with libjpeg (its jpeg_encoder.c is a helper
 * that hands the planes to libjpeg, with the same settings as "turbo"),
 * model and turbo write the same bytes; the ratio shows the helper's
 * overhead (edge padding, the GByteArray destination).
 *
 * Each encoder runs each case for at least SECONDS (default 2) of its
 * thread's CPU time after a warm-up frame.  Printed per case and encoder:
 * frames, Mpixel/s on CPU time and on wall time, ms a frame, bytes a
 * frame, luma PSNR of the frame decoded back by libjpeg against the
 * source, and for the model the SHA-256 of its frame (identical output
 * after a change of the encoder shows there); then the ratio of
 * libjpeg-turbo's CPU-time throughput to the model's.  -o DIR writes each
 * case's frames as DIR/<case>-<encoder>.jpg.  -e ENC (model, turbo or
 * turbo-fl; repeatable) runs only those encoders, no ratio (for perf).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib.h>
#include <jpeglib.h>

#include "qemu/osdep.h"
#include "hw/misc/jpeg_encoder.h"

typedef struct Case {
    unsigned int w, h;
    int nv12;
} Case;

typedef struct Frame {
    const Case *c;
    uint8_t *raw;           /* YUYV (w * 2 x h) or NV12 (w x h * 3 / 2) */
    uint8_t *planes;        /* Y, Cb, Cr as the codec splits them */
    JpegEncoderImage img;
} Frame;

static uint64_t rng_state;

static uint32_t rng(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (rng_state * 2685821657736338717ull) >> 32;
}

static uint8_t clamp8(int v)
{
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* Gradients, vertical bars and a soft diagonal, plus noise (+-6 luma, +-3
 * chroma). */
static uint8_t pat_y(const Case *c, unsigned int x, unsigned int y)
{
    int v = (int)(x * 160 / c->w + y * 80 / c->h) + 8;

    v += ((x / 40) & 1) ? 12 : -12;
    v += (int)(20 * sin((x + y) * 0.05));
    return clamp8(v + (int)(rng() % 13) - 6);
}

static uint8_t pat_c(const Case *c, unsigned int x, unsigned int y, int cr)
{
    int v = cr ? 96 + (int)(y * 64 / c->h) : 160 - (int)(x * 64 / c->w);

    return clamp8(v + (int)(rng() % 7) - 3);
}

/* The camera-like frame in the codec's input format. */
static void frame_make(Frame *f, const Case *c)
{
    unsigned int x, y;

    f->c = c;
    if (!c->nv12) {
        f->raw = g_malloc((size_t)c->w * 2 * c->h);
        for (y = 0; y < c->h; y++) {
            uint8_t *l = f->raw + (size_t)y * c->w * 2;

            for (x = 0; x < c->w; x += 2) {
                l[2 * x + 0] = pat_y(c, x, y);
                l[2 * x + 1] = pat_c(c, x, y, 0);
                l[2 * x + 2] = pat_y(c, x + 1, y);
                l[2 * x + 3] = pat_c(c, x, y, 1);
            }
        }
    } else {
        uint8_t *cl;

        f->raw = g_malloc((size_t)c->w * c->h * 3 / 2);
        for (y = 0; y < c->h; y++) {
            for (x = 0; x < c->w; x++) {
                f->raw[(size_t)y * c->w + x] = pat_y(c, x, y);
            }
        }
        cl = f->raw + (size_t)c->w * c->h;
        for (y = 0; y < c->h / 2; y++) {
            for (x = 0; x < c->w / 2; x++) {
                cl[(size_t)y * c->w + 2 * x] = pat_c(c, 2 * x, 2 * y, 0);
                cl[(size_t)y * c->w + 2 * x + 1] = pat_c(c, 2 * x, 2 * y, 1);
            }
        }
    }
}

/*
 * The planes, as s5pv210_codec_deinterleave() makes them (YUYV, NV12,
 * lines without padding).
 */
static void frame_split(Frame *f)
{
    const Case *c = f->c;
    size_t cw = c->w / 2, ch = c->nv12 ? c->h / 2 : c->h, x, y;
    uint8_t *py, *pu, *pv;

    if (!f->planes) {
        f->planes = g_malloc((size_t)c->w * c->h * 2);
    }
    py = f->planes;
    pu = py + (size_t)c->w * c->h;
    pv = pu + cw * ch;
    f->img = (JpegEncoderImage) {
        .width = c->w, .height = c->h,
        .h_samp = 2, .v_samp = c->nv12 ? 2 : 1,
        .plane = { py, pu, pv },
        .stride = { c->w, cw, cw },
    };
    if (c->nv12) {
        const uint8_t *chroma = f->raw + (size_t)c->w * c->h;

        memcpy(py, f->raw, (size_t)c->w * c->h);
        for (y = 0; y < ch; y++) {
            const uint8_t *l = chroma + y * c->w;

            for (x = 0; x < cw; x++) {
                pu[y * cw + x] = l[2 * x];
                pv[y * cw + x] = l[2 * x + 1];
            }
        }
    } else {
        for (y = 0; y < c->h; y++) {
            const uint8_t *l = f->raw + y * c->w * 2;

            for (x = 0; x < cw; x++) {
                py[y * c->w + 2 * x] = l[4 * x];
                py[y * c->w + 2 * x + 1] = l[4 * x + 2];
                pu[y * cw + x] = l[4 * x + 1];
                pv[y * cw + x] = l[4 * x + 3];
            }
        }
    }
}

/* libjpeg-turbo, raw Y'CbCr in; cinfo kept from frame to frame. */
typedef struct Turbo {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    unsigned char *buf;
    unsigned long bufsize;
    unsigned long size;
    J_DCT_METHOD dct;
} Turbo;

static void turbo_encode(Turbo *t, const JpegEncoderImage *img, int quality)
{
    struct jpeg_compress_struct *ci = &t->cinfo;
    JSAMPROW rows[3][16];
    JSAMPARRAY planes[3] = { rows[0], rows[1], rows[2] };
    unsigned int y, i, k;

    t->size = t->bufsize;
    jpeg_mem_dest(ci, &t->buf, &t->size);
    ci->image_width = img->width;
    ci->image_height = img->height;
    ci->input_components = 3;
    ci->in_color_space = JCS_YCbCr;
    jpeg_set_defaults(ci);
    jpeg_set_quality(ci, quality, TRUE);
    ci->raw_data_in = TRUE;
    ci->dct_method = t->dct;
    ci->comp_info[0].h_samp_factor = img->h_samp;
    ci->comp_info[0].v_samp_factor = img->v_samp;
    for (i = 1; i < 3; i++) {
        ci->comp_info[i].h_samp_factor = 1;
        ci->comp_info[i].v_samp_factor = 1;
    }
    jpeg_start_compress(ci, TRUE);
    for (y = 0; y < img->height; y += 8 * img->v_samp) {
        for (k = 0; k < 8 * img->v_samp; k++) {
            rows[0][k] = (JSAMPROW)img->plane[0] + (y + k) * img->stride[0];
        }
        for (i = 1; i < 3; i++) {
            for (k = 0; k < 8; k++) {
                rows[i][k] = (JSAMPROW)img->plane[i] +
                             (y / img->v_samp + k) * img->stride[i];
            }
        }
        jpeg_write_raw_data(ci, planes, 8 * img->v_samp);
    }
    jpeg_finish_compress(ci);
}

/* Luma PSNR of @jpg decoded by libjpeg against the frame's Y plane. */
static double psnr_y(const Frame *f, const uint8_t *jpg, size_t len)
{
    struct jpeg_decompress_struct d;
    struct jpeg_error_mgr jerr;
    const JpegEncoderImage *img = &f->img;
    uint8_t *line;
    double se = 0;
    unsigned int x;

    d.err = jpeg_std_error(&jerr);
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, (unsigned char *)jpg, len);
    jpeg_read_header(&d, TRUE);
    d.out_color_space = JCS_YCbCr;
    jpeg_start_decompress(&d);
    line = g_malloc(d.output_width * 3);
    while (d.output_scanline < d.output_height) {
        unsigned int y = d.output_scanline;
        const uint8_t *src = img->plane[0] + y * img->stride[0];

        jpeg_read_scanlines(&d, &line, 1);
        for (x = 0; x < img->width; x++) {
            double e = (double)line[3 * x] - src[x];

            se += e * e;
        }
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    g_free(line);
    se /= (double)img->width * img->height;
    return se ? 10 * log10(255.0 * 255.0 / se) : 99.99;
}

static double now(clockid_t clk)
{
    struct timespec ts;

    clock_gettime(clk, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct Result {
    unsigned int frames;
    double cpu, wall;
    size_t bytes;
    double psnr;
} Result;

enum { ENC_MODEL, ENC_TURBO, ENC_TURBO_FLOAT, ENC_N };
static const char *const enc_name[ENC_N] = { "model", "turbo", "turbo-fl" };

/* Encode @f once with encoder @e; the frame stays in *last. */
static void encode_once(int e, Frame *f, int quality, Turbo *t,
                        GByteArray **last)
{
    if (e == ENC_MODEL) {
        GByteArray *out = g_byte_array_new();

        jpeg_encoder_encode(&f->img, quality, out);
        if (*last) {
            g_byte_array_unref(*last);
        }
        *last = out;
    } else {
        t->dct = e == ENC_TURBO ? JDCT_ISLOW : JDCT_FLOAT;
        turbo_encode(t, &f->img, quality);
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: encoder-bench [-q QUALITY] [-t SECONDS] "
            "[-s SEED] [-o DIR] [-e model|turbo|turbo-fl] "
            "[WxH:yuyv|nv12 ...]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    static const char *const defaults[] = {
        "640x480:yuyv", "640x480:nv12", "1280x720:yuyv", "1280x720:nv12",
    };
    const char *const *cases = defaults;
    int ncases = 4, quality = 90, opt, i, e;
    double seconds = 2;
    unsigned long seed = 20100720;
    const char *outdir = NULL;
    Turbo turbo = { 0 };
    unsigned int encs = 0;

    while ((opt = getopt(argc, argv, "q:t:s:o:e:h")) != -1) {
        switch (opt) {
        case 'q':
            quality = atoi(optarg);
            if (quality < 1 || quality > 100) {
                usage();
            }
            break;
        case 't':
            seconds = atof(optarg);
            if (!(seconds > 0)) {
                usage();
            }
            break;
        case 's':
            seed = strtoul(optarg, NULL, 0);
            break;
        case 'o':
            outdir = optarg;
            break;
        case 'e':
            for (e = 0; e < ENC_N && strcmp(optarg, enc_name[e]); e++) {
                /* find it */
            }
            if (e == ENC_N) {
                usage();
            }
            encs |= 1u << e;
            break;
        default:
            usage();
        }
    }
    encs = encs ? encs : (1u << ENC_N) - 1;
    if (optind < argc) {
        cases = (const char *const *)argv + optind;
        ncases = argc - optind;
    }

    turbo.cinfo.err = jpeg_std_error(&turbo.jerr);
    jpeg_create_compress(&turbo.cinfo);

    printf("# encoder-bench: quality %d, seed %lu, >= %.1f s CPU per "
           "encoder and case; libjpeg-turbo %d (libjpeg API %d)\n",
           quality, seed, seconds, LIBJPEG_TURBO_VERSION_NUMBER,
           JPEG_LIB_VERSION);
    printf("# %-14s %-8s %6s %11s %12s %9s %8s %7s  %s\n", "case", "encoder",
           "frames", "Mpix/s-cpu", "Mpix/s-wall", "ms/frame", "bytes",
           "PSNR-Y", "sha256 (model)");
    for (i = 0; i < ncases; i++) {
        Case c;
        char fmt[8];
        Frame f = { 0 };
        Result r[ENC_N];
        GByteArray *last = NULL;
        double split0, split;
        unsigned int n;

        if (sscanf(cases[i], "%ux%u:%7s", &c.w, &c.h, fmt) != 3 ||
            (strcmp(fmt, "yuyv") && strcmp(fmt, "nv12"))) {
            fprintf(stderr, "encoder-bench: bad case '%s'\n", cases[i]);
            usage();
        }
        c.nv12 = !strcmp(fmt, "nv12");
        /* libjpeg's raw input takes whole MCU rows; the codec's limits */
        if (c.w < 16 || c.w > 2048 || c.h < 16 || c.h > 2048 ||
            c.w % 16 || c.h % (c.nv12 ? 16 : 8)) {
            fprintf(stderr, "encoder-bench: %s: width a multiple of 16 and "
                    "height of 16 (nv12) or 8 (yuyv), 16-2048\n", cases[i]);
            return 2;
        }
        rng_state = seed * 2654435761u + c.w * 4099u + c.h * 13u + c.nv12;
        rng_state |= 1;
        frame_make(&f, &c);
        /* libjpeg writes into this buffer (large enough: no reallocation) */
        turbo.bufsize = (unsigned long)c.w * c.h * 3 + 65536;
        g_free(turbo.buf);
        turbo.buf = g_malloc(turbo.bufsize);
        split0 = now(CLOCK_THREAD_CPUTIME_ID);
        for (n = 0; n < 20; n++) {
            frame_split(&f);
        }
        split = (now(CLOCK_THREAD_CPUTIME_ID) - split0) / n;

        for (e = 0; e < ENC_N; e++) {
            double c0, w0;
            const uint8_t *data;
            size_t len;

            if (!(encs & (1u << e))) {
                continue;
            }

            encode_once(e, &f, quality, &turbo, &last); /* warm-up */
            c0 = now(CLOCK_THREAD_CPUTIME_ID);
            w0 = now(CLOCK_MONOTONIC);
            n = 0;
            do {
                encode_once(e, &f, quality, &turbo, &last);
                n++;
            } while (n < 3 || now(CLOCK_THREAD_CPUTIME_ID) - c0 < seconds);
            r[e].cpu = now(CLOCK_THREAD_CPUTIME_ID) - c0;
            r[e].wall = now(CLOCK_MONOTONIC) - w0;
            r[e].frames = n;
            data = e == ENC_MODEL ? last->data : turbo.buf;
            len = e == ENC_MODEL ? last->len : turbo.size;
            r[e].bytes = len;
            r[e].psnr = psnr_y(&f, data, len);
            if (outdir) {
                g_autofree char *p = g_strdup_printf("%s/%ux%u-%s-%s.jpg",
                                                     outdir, c.w, c.h, fmt,
                                                     enc_name[e]);
                g_autoptr(GError) err = NULL;

                if (!g_file_set_contents(p, (const char *)data, len, &err)) {
                    fprintf(stderr, "encoder-bench: %s\n", err->message);
                    return 1;
                }
            }
            {
                double px = (double)c.w * c.h * n;
                g_autofree char *sum = e == ENC_MODEL ?
                    g_compute_checksum_for_data(G_CHECKSUM_SHA256, data, len) :
                    g_strdup("-");

                printf("  %-14s %-8s %6u %11.2f %12.2f %9.2f %8zu %7.2f  %s\n",
                       cases[i], enc_name[e], n, px / r[e].cpu / 1e6,
                       px / r[e].wall / 1e6, r[e].cpu / n * 1e3, len,
                       r[e].psnr, sum);
            }
        }
        if (encs != (1u << ENC_N) - 1) {
            goto next;
        }
        printf("  %-14s libjpeg-turbo is %.2fx the model (integer DCT), "
               "%.2fx (float DCT); the codec's plane split: %.2f ms\n",
               cases[i],
               (r[ENC_TURBO].frames / r[ENC_TURBO].cpu) /
               (r[ENC_MODEL].frames / r[ENC_MODEL].cpu),
               (r[ENC_TURBO_FLOAT].frames / r[ENC_TURBO_FLOAT].cpu) /
               (r[ENC_MODEL].frames / r[ENC_MODEL].cpu),
               split * 1e3);
    next:
        if (last) {
            g_byte_array_unref(last);
        }
        g_free(f.raw);
        g_free(f.planes);
    }
    jpeg_destroy_compress(&turbo.cinfo);
    g_free(turbo.buf);
    return 0;
}
