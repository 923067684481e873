/* ABI fuzzer: drives every libinfiniop entry point with random and hostile
 * arguments on the CPU device, and runs each operator whose descriptor was
 * accepted on buffers that exactly cover its tensors' strides (so that ASan,
 * under `make sanitize`, sees any out-of-bounds access).
 *
 *   abi_fuzz SEED CALLS SECONDS   -> prints "calls=N crashes=0 statuses=..." and exits 0
 *
 * A crash is the process dying; a wrong status is reported and exits 1.
 * C99, no dependencies but the public headers. */
#include <infiniop.h>
#include <infinirt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state;
static uint64_t next_u64(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int rnd(int n) { return (int)(next_u64() % (uint64_t)n); }
static double rnd01(void) { return (double)(next_u64() >> 11) / 9007199254740992.0; }

static long status_counts[16];
static long calls;
static int failures;

static void count(infiniStatus_t st, const char *where, int allowed_mask) {
    int s = (int)st;
    calls++;
    if (s < 0 || s > 13 || s == 9) {
        printf("BAD STATUS %d from %s\n", s, where);
        failures++;
        return;
    }
    status_counts[s]++;
    if (!(allowed_mask & (1 << s))) {
        printf("UNEXPECTED %s from %s\n", infiniGetStatusString(st), where);
        failures++;
    }
}
#define ANY 0x3DFF /* every defined status */

static const size_t elem_size[20] = {0, 1, 1, 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 16, 2};

typedef struct {
    size_t ndim;
    size_t shape[8];
    ptrdiff_t strides[8];
    int dtype;
    int null_strides;
} Tensor;

/* A random layout: contiguous, padded, transposed, broadcast or reversed dims,
 * sometimes huge or hostile. */
static void random_tensor(Tensor *t, size_t ndim, const size_t *shape, int dtype) {
    size_t i, j;
    t->ndim = ndim;
    t->dtype = dtype;
    for (i = 0; i < ndim; i++) t->shape[i] = shape[i];
    t->null_strides = rnd(4) == 0;
    {
        ptrdiff_t step = 1;
        size_t order[8];
        for (i = 0; i < ndim; i++) order[i] = ndim - 1 - i;
        if (rnd(3) == 0) /* shuffle: transposed */
            for (i = ndim; i > 1; i--) {
                size_t k = (size_t)rnd((int)i), tmp = order[i - 1];
                order[i - 1] = order[k];
                order[k] = tmp;
            }
        for (j = 0; j < ndim; j++) {
            i = order[j];
            t->strides[i] = step;
            step *= (ptrdiff_t)(t->shape[i] ? t->shape[i] : 1) + (rnd(4) == 0 ? rnd(3) : 0);
        }
    }
    for (i = 0; i < ndim; i++) {
        int r = rnd(20);
        if (r == 0) t->strides[i] = 0;                        /* broadcast */
        else if (r == 1) t->strides[i] = -t->strides[i];      /* reversed */
        else if (r == 2) t->strides[i] = (ptrdiff_t)1 << 61;  /* hostile */
    }
}

static infiniopTensorDescriptor_t make_desc(const Tensor *t) {
    infiniopTensorDescriptor_t d = NULL;
    infiniStatus_t st = infiniopCreateTensorDescriptor(&d, t->ndim, t->shape, t->null_strides ? NULL : t->strides,
                                                       (infiniDtype_t)t->dtype);
    count(st, "CreateTensorDescriptor", ANY);
    return st == INFINI_STATUS_SUCCESS ? d : NULL;
}

/* A buffer that covers exactly the elements the layout reaches; *base is where
 * element 0 lives. NULL when the span is too large to bother. */
static unsigned char *make_buffer(const Tensor *t, unsigned char **base) {
    ptrdiff_t lo = 0, hi = 0, step = 1;
    size_t i, es = elem_size[t->dtype > 0 && t->dtype < 20 ? t->dtype : 1], bytes;
    unsigned char *buf;
    for (i = 0; i < t->ndim; i++)
        if (t->shape[i] == 0) {
            *base = NULL;
            return NULL;
        }
    for (i = t->ndim; i-- > 0;) {
        ptrdiff_t s = t->null_strides ? step : t->strides[i];
        ptrdiff_t ext = s * (ptrdiff_t)(t->shape[i] - 1);
        if (s > ((ptrdiff_t)1 << 40) || s < -((ptrdiff_t)1 << 40)) {
            *base = NULL;
            return NULL;
        }
        if (ext < 0) lo += ext; else hi += ext;
        step *= (ptrdiff_t)t->shape[i];
    }
    bytes = (size_t)(hi - lo + 1) * es;
    if (bytes > ((size_t)64 << 20)) {
        *base = NULL;
        return NULL;
    }
    buf = (unsigned char *)malloc(bytes);
    for (i = 0; i < bytes; i++) buf[i] = (unsigned char)next_u64();
    *base = buf + (size_t)(-lo) * es;
    return buf;
}

static void random_shape(size_t *ndim, size_t *shape) {
    size_t i;
    *ndim = (size_t)rnd(6);
    for (i = 0; i < *ndim; i++) {
        int r = rnd(30);
        shape[i] = r == 0 ? 0 : (r == 1 ? ((size_t)1 << 62) : (size_t)(1 + rnd(r < 20 ? 5 : 40)));
    }
}

static int random_dtype(void) {
    static const int common[] = {12, 13, 14, 19, 3, 4, 5, 6, 7, 8, 9, 10};
    int r = rnd(12);
    if (r == 0) return rnd(25) - 2; /* anything, invalid included */
    return common[rnd(12)];
}

static void fuzz_rearrange(infiniopHandle_t h) {
    size_t ndim, shape[8];
    Tensor dst, src;
    infiniopTensorDescriptor_t dd, sd;
    infiniopRearrangeDescriptor_t op = NULL;
    int dtype = random_dtype();
    random_shape(&ndim, shape);
    random_tensor(&dst, ndim, shape, dtype);
    random_tensor(&src, ndim, shape, rnd(10) ? dtype : random_dtype());
    dd = make_desc(&dst);
    sd = make_desc(&src);
    count(infiniopCreateRearrangeDescriptor(h, &op, dd, sd), "CreateRearrange", ANY);
    if (op) {
        unsigned char *db, *sb, *dbase, *sbase;
        db = make_buffer(&dst, &dbase);
        sb = make_buffer(&src, &sbase);
        if (db && sb) count(infiniopRearrange(op, dbase, sbase, NULL), "Rearrange", 1);
        count(infiniopRearrange(op, NULL, sbase, NULL), "Rearrange(NULL)", ANY);
        free(db);
        free(sb);
        count(infiniopDestroyRearrangeDescriptor(op), "DestroyRearrange", 1);
    }
    if (dd) infiniopDestroyTensorDescriptor(dd);
    if (sd) infiniopDestroyTensorDescriptor(sd);
}

static void fuzz_mul(infiniopHandle_t h) {
    size_t ndim, shape[8], i;
    Tensor c, a, b;
    infiniopTensorDescriptor_t cd, ad, bd;
    infiniopMulDescriptor_t op = NULL;
    int dtype = random_dtype();
    size_t bshape[8];
    random_shape(&ndim, shape);
    for (i = 0; i < ndim; i++) bshape[i] = rnd(4) == 0 ? 1 : shape[i]; /* NumPy-broadcast operand */
    random_tensor(&c, ndim, shape, dtype);
    random_tensor(&a, ndim, shape, rnd(10) ? dtype : random_dtype());
    random_tensor(&b, ndim, bshape, dtype);
    cd = make_desc(&c);
    ad = make_desc(&a);
    bd = make_desc(&b);
    count(infiniopCreateMulDescriptor(h, &op, cd, ad, bd), "CreateMul", ANY);
    if (op) {
        size_t ws = 0;
        unsigned char *cb, *ab, *bb, *cbase, *abase, *bbase;
        void *w;
        count(infiniopGetMulWorkspaceSize(op, &ws), "GetMulWorkspaceSize", 1);
        w = malloc(ws + 1);
        cb = make_buffer(&c, &cbase);
        ab = make_buffer(&a, &abase);
        bb = make_buffer(&b, &bbase);
        if (cb && ab && bb) count(infiniopMul(op, w, ws, cbase, abase, bbase, NULL), "Mul", 1);
        if (ws) count(infiniopMul(op, w, ws - 1, cbase, abase, bbase, NULL), "Mul(small ws)", 1 << 13);
        free(cb);
        free(ab);
        free(bb);
        free(w);
        count(infiniopDestroyMulDescriptor(op), "DestroyMul", 1);
    }
    if (cd) infiniopDestroyTensorDescriptor(cd);
    if (ad) infiniopDestroyTensorDescriptor(ad);
    if (bd) infiniopDestroyTensorDescriptor(bd);
}

static void fuzz_lp_norm(infiniopHandle_t h) {
    size_t ndim, shape[8];
    Tensor y, x;
    infiniopTensorDescriptor_t yd, xd;
    infiniopLPNormDescriptor_t op = NULL;
    int dtype = random_dtype(), axis, p;
    float eps;
    random_shape(&ndim, shape);
    random_tensor(&y, ndim, shape, dtype);
    random_tensor(&x, ndim, shape, dtype);
    axis = rnd(20) == 0 ? rnd(100) - 50 : (ndim ? rnd(2 * (int)ndim) - (int)ndim : 0);
    p = rnd(10) == 0 ? rnd(10) - 5 : 1 + rnd(4);
    eps = rnd(10) == 0 ? -1.0f : (float)(rnd01() * 1e-3);
    yd = make_desc(&y);
    xd = make_desc(&x);
    count(infiniopCreateLPNormDescriptor(h, &op, yd, xd, axis, p, eps), "CreateLPNorm", ANY);
    if (op) {
        size_t ws = 0;
        unsigned char *yb, *xb, *ybase, *xbase;
        void *w;
        count(infiniopGetLPNormWorkspaceSize(op, &ws), "GetLPNormWorkspaceSize", 1);
        w = malloc(ws + 1);
        yb = make_buffer(&y, &ybase);
        xb = make_buffer(&x, &xbase);
        if (yb && xb) count(infiniopLPNorm(op, w, ws, ybase, xbase, NULL), "LPNorm", 1);
        free(yb);
        free(xb);
        free(w);
        count(infiniopDestroyLPNormDescriptor(op), "DestroyLPNorm", 1);
    }
    if (yd) infiniopDestroyTensorDescriptor(yd);
    if (xd) infiniopDestroyTensorDescriptor(xd);
}

static void fuzz_random_sample(infiniopHandle_t h) {
    Tensor res, probs;
    size_t n = (size_t)(rnd(8) == 0 ? rnd(3) : 1 + rnd(3000)), one = 1;
    infiniopTensorDescriptor_t rd, pd;
    infiniopRandomSampleDescriptor_t op = NULL;
    int index_dtypes[] = {3, 4, 5, 6, 7, 8, 9, 10, 13};
    int float_dtypes[] = {12, 13, 14, 19, 5};
    int batch = rnd(3) == 0;
    size_t bshape[2];
    bshape[0] = (size_t)(1 + rnd(4));
    bshape[1] = n;
    random_tensor(&res, batch ? 1 : 0, bshape, index_dtypes[rnd(9)]);
    res.null_strides = 1;
    if (batch) {
        random_tensor(&probs, 2, bshape, float_dtypes[rnd(5)]);
        probs.null_strides = rnd(2);
        if (!probs.null_strides) {
            probs.strides[1] = rnd(10) ? 1 : 2;
            probs.strides[0] = (ptrdiff_t)n + rnd(3) - (rnd(10) == 0);
        }
    } else {
        random_tensor(&probs, rnd(10) ? 1 : 2, rnd(10) ? &n : bshape, float_dtypes[rnd(5)]);
        if (probs.ndim == 1 && rnd(5)) probs.strides[0] = 1;
    }
    (void)one;
    rd = make_desc(&res);
    pd = make_desc(&probs);
    if (batch)
        count(infiniopCreateRandomSampleBatchDescriptor(h, &op, rd, pd), "CreateRandomSampleBatch", ANY);
    else
        count(infiniopCreateRandomSampleDescriptor(h, &op, rd, pd), "CreateRandomSample", ANY);
    if (op) {
        size_t ws = 0, i;
        unsigned char *rb, *pb, *rbase, *pbase;
        void *w;
        float rv[4], tp[4], tt[4];
        int tk[4];
        for (i = 0; i < 4; i++) {
            rv[i] = (float)rnd01();
            tp[i] = (float)(rnd01() * 1.2);
            tk[i] = rnd(100) - 10;
            tt[i] = (float)(rnd01() * 2.0);
        }
        count(infiniopGetRandomSampleWorkspaceSize(op, &ws), "GetRandomSampleWorkspaceSize", 1);
        w = malloc(ws + 1);
        rb = make_buffer(&res, &rbase);
        pb = make_buffer(&probs, &pbase);
        if (rb && pb) {
            if (batch)
                count(infiniopRandomSampleBatch(op, w, ws, rbase, pbase, rv, tp, tk, tt, (int)bshape[0], NULL),
                      "RandomSampleBatch", 1);
            else
                count(infiniopRandomSample(op, w, ws, rbase, pbase, rv[0], tp[0], tk[0], tt[0], NULL),
                      "RandomSample", 1);
            /* Hostile parameters: any status, never a crash or a hang. */
            if (!batch)
                count(infiniopRandomSample(op, w, ws, rbase, pbase, rnd(2) ? -0.5f : 1.5f, tp[0], tk[0],
                                           rnd(2) ? -1.0f : tt[0], NULL), "RandomSample(hostile)", ANY);
        }
        free(rb);
        free(pb);
        free(w);
        count(infiniopDestroyRandomSampleDescriptor(op), "DestroyRandomSample", 1);
    }
    if (rd) infiniopDestroyTensorDescriptor(rd);
    if (pd) infiniopDestroyTensorDescriptor(pd);
}

/* NULL for every pointer argument: NULL_POINTER (or BAD_PARAM), never a crash. */
static void fuzz_nulls(infiniopHandle_t h) {
    const int nullish = (1 << 4) | (1 << 3);
    size_t shape[1] = {4}, ws;
    infiniopTensorDescriptor_t t = NULL;
    void *op = NULL;
    count(infiniopCreateTensorDescriptor(&t, 1, shape, NULL, INFINI_DTYPE_F32), "CreateTensorDescriptor", 1);
    count(infiniopCreateRearrangeDescriptor(NULL, (infiniopRearrangeDescriptor_t *)&op, t, t), "CreateRearrange(NULL h)", nullish);
    count(infiniopCreateRearrangeDescriptor(h, NULL, t, t), "CreateRearrange(NULL out)", nullish);
    count(infiniopCreateRearrangeDescriptor(h, (infiniopRearrangeDescriptor_t *)&op, NULL, t), "CreateRearrange(NULL dst)", nullish);
    count(infiniopCreateMulDescriptor(h, (infiniopMulDescriptor_t *)&op, t, NULL, t), "CreateMul(NULL a)", nullish);
    count(infiniopCreateLPNormDescriptor(h, (infiniopLPNormDescriptor_t *)&op, t, NULL, 0, 2, 1e-12f), "CreateLPNorm(NULL x)", nullish);
    count(infiniopCreateRandomSampleDescriptor(h, (infiniopRandomSampleDescriptor_t *)&op, NULL, t), "CreateRandomSample(NULL)", nullish);
    count(infiniopCreateRandomSampleBatchDescriptor(h, (infiniopRandomSampleDescriptor_t *)&op, t, NULL), "CreateRandomSampleBatch(NULL)", nullish);
    count(infiniopRearrange(NULL, NULL, NULL, NULL), "Rearrange(NULL desc)", nullish);
    count(infiniopMul(NULL, NULL, 0, NULL, NULL, NULL, NULL), "Mul(NULL desc)", nullish);
    count(infiniopLPNorm(NULL, NULL, 0, NULL, NULL, NULL), "LPNorm(NULL desc)", nullish);
    count(infiniopRandomSample(NULL, NULL, 0, NULL, NULL, 0.5f, 0.9f, 5, 1.0f, NULL), "RandomSample(NULL desc)", nullish);
    count(infiniopRandomSampleBatch(NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, 1, NULL), "RandomSampleBatch(NULL desc)", nullish);
    count(infiniopGetMulWorkspaceSize(NULL, &ws), "GetMulWorkspaceSize(NULL)", nullish);
    count(infiniopGetLPNormWorkspaceSize(NULL, &ws), "GetLPNormWorkspaceSize(NULL)", nullish);
    count(infiniopGetRandomSampleWorkspaceSize(NULL, &ws), "GetRandomSampleWorkspaceSize(NULL)", nullish);
    count(infiniopDestroyRearrangeDescriptor(NULL), "DestroyRearrange(NULL)", nullish);
    count(infiniopDestroyMulDescriptor(NULL), "DestroyMul(NULL)", nullish);
    count(infiniopDestroyLPNormDescriptor(NULL), "DestroyLPNorm(NULL)", nullish);
    count(infiniopDestroyRandomSampleDescriptor(NULL), "DestroyRandomSample(NULL)", nullish);
    /* A descriptor of one operator passed to another: refused, not misread. */
    op = NULL;
    if (infiniopCreateRearrangeDescriptor(h, (infiniopRearrangeDescriptor_t *)&op, t, t) == INFINI_STATUS_SUCCESS) {
        float buf[4] = {1, 2, 3, 4}, out[4];
        count(infiniopMul((infiniopMulDescriptor_t)op, NULL, 0, out, buf, buf, NULL), "Mul(rearrange desc)", 1 << 3);
        count(infiniopLPNorm((infiniopLPNormDescriptor_t)op, NULL, 0, out, buf, NULL), "LPNorm(rearrange desc)", 1 << 3);
        count(infiniopDestroyMulDescriptor((infiniopMulDescriptor_t)op), "DestroyMul(rearrange desc)", 1 << 3);
        count(infiniopDestroyRearrangeDescriptor((infiniopRearrangeDescriptor_t)op), "DestroyRearrange", 1);
    }
    infiniopDestroyTensorDescriptor(t);
}

int main(int argc, char **argv) {
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 10) : (unsigned long)time(NULL);
    long max_calls = argc > 2 ? atol(argv[2]) : 10000;
    double max_seconds = argc > 3 ? atof(argv[3]) : 60.0;
    clock_t start = clock();
    infiniopHandle_t h = NULL;
    int i;
    rng_state = seed;
    if (infiniopCreateHandle(&h) != INFINI_STATUS_SUCCESS) {
        printf("cannot create a CPU handle\n");
        return 2;
    }
    fuzz_nulls(h);
    while (calls < max_calls && (double)(clock() - start) / CLOCKS_PER_SEC < max_seconds) {
        switch (rnd(4)) {
        case 0: fuzz_rearrange(h); break;
        case 1: fuzz_mul(h); break;
        case 2: fuzz_lp_norm(h); break;
        default: fuzz_random_sample(h); break;
        }
    }
    infiniopDestroyHandle(h);
    printf("seed=%lu calls=%ld crashes=0 unexpected=%d statuses:", seed, calls, failures);
    for (i = 0; i < 14; i++)
        if (status_counts[i]) printf(" %s=%ld", infiniGetStatusString((infiniStatus_t)i), status_counts[i]);
    printf("\n");
    return failures ? 1 : 0;
}
