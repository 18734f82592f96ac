// Encodes a grey PGM (P5) as HEIC with an orientation transform (irot/imir boxes), which
// heif-enc 1.15 cannot write: the fixture for "HEIF transforms are applied at decode".
//   cc heif_orient.c $(pkg-config --cflags --libs libheif) -o heif_orient
//   ./heif_orient in.pgm 6 out.heic
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(struct heif_error e) { if (e.code) { fprintf(stderr, "libheif: %s\n", e.message); exit(1); } }

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: heif_orient in.pgm ORIENTATION out.heic\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    int w, h, max;
    if (!f || fscanf(f, "P5 %d %d %d", &w, &h, &max) != 3 || fgetc(f) == EOF) { fprintf(stderr, "not a P5 PGM\n"); return 1; }
    struct heif_image *img;
    check(heif_image_create(w, h, heif_colorspace_monochrome, heif_chroma_monochrome, &img));
    check(heif_image_add_plane(img, heif_channel_Y, w, h, 8));
    int stride;
    uint8_t *p = heif_image_get_plane(img, heif_channel_Y, &stride);
    for (int y = 0; y < h; y++) if (fread(p + y * stride, 1, w, f) != (size_t)w) { fprintf(stderr, "short PGM\n"); return 1; }
    fclose(f);
    struct heif_context *ctx = heif_context_alloc();
    struct heif_encoder *enc;
    check(heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &enc));
    heif_encoder_set_lossy_quality(enc, 60);
    struct heif_encoding_options *opt = heif_encoding_options_alloc();
    opt->image_orientation = (enum heif_orientation)atoi(argv[2]);
    check(heif_context_encode_image(ctx, img, enc, opt, NULL));
    check(heif_context_write_to_file(ctx, argv[3]));
    return 0;
}
