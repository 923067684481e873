// Which 2-D tensor-map shapes let one cp.async.bulk.tensor load run (session 23: the row-group maps
// of tma_tile.cuh met an illegal instruction). One configuration a process (a fault ends the
// context): tma_probe INNER OUTER STRIDE_BYTES BOX0 BOX1 C0 C1 [SWIZZLE 0/1 [STORE 0/1]]: a
// load at (C0, C1), with STORE then a store of the box at (C0 + 1, C1). Prints ok or the error.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>

__global__ void probe(const __grid_constant__ CUtensorMap map, int c0, int c1, uint32_t bytes, unsigned *out, int store) {
    extern __shared__ __align__(1024) unsigned char smem[];
    __shared__ uint64_t bar;
    const uint32_t s = (uint32_t)__cvta_generic_to_shared(smem), b = (uint32_t)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
        asm volatile("fence.proxy.async.shared::cta;");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     ::"r"(s), "l"(&map), "r"(c0), "r"(c1), "r"(b) : "memory");
        uint32_t done = 0;
        while (!done) {
            asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                         : "=r"(done) : "r"(b) : "memory");
        }
        out[0] = reinterpret_cast<unsigned *>(smem)[0];
        if (store) {
            asm volatile("fence.proxy.async.shared::cta;");
            asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&map),
                         "r"(c0 + 1), "r"(c1), "r"(s) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 8) { fprintf(stderr, "usage\n"); return 2; }
    const uint64_t inner = strtoull(argv[1], 0, 10), outer = strtoull(argv[2], 0, 10), stride = strtoull(argv[3], 0, 10);
    const uint32_t box0 = atoi(argv[4]), box1 = atoi(argv[5]);
    const int c0 = atoi(argv[6]), c1 = atoi(argv[7]);
    const bool swz = argc < 9 || atoi(argv[8]) != 0;
    const int store = argc > 9 ? atoi(argv[9]) : 0;
    void *buf;
    const size_t bytes = stride * outer + 4096;
    if (cudaMalloc(&buf, bytes) != cudaSuccess) { printf("malloc failed\n"); return 1; }
    cudaMemset(buf, 1, bytes);
    CUtensorMap map;
    const cuuint64_t dims[2] = {inner, outer}, strides[1] = {stride};
    const cuuint32_t box[2] = {box0, box1}, es[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, buf, dims, strides, box, es,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, swz ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    printf("inner %llu outer %llu stride %llu box %u x %u at (%d, %d) swizzle %d: ", (unsigned long long)inner,
           (unsigned long long)outer, (unsigned long long)stride, box0, box1, c0, c1, (int)swz);
    if (store) printf("then a store at (%d, %d): ", c0 + 1, c1);
    if (r != CUDA_SUCCESS) { printf("encode refused (%d)\n", (int)r); return 0; }
    unsigned *out;
    cudaMalloc(&out, 4);
    cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    probe<<<1, 32, 64 * 1024>>>(map, c0, c1, box0 * box1 * 2, out, store);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
    return 0;
}
