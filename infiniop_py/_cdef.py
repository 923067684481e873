"""The shared C declarations of the InfiniCore operator ABI, for cffi's ABI mode.

This mirrors native/include/ (infinicore.h, infinirt.h, and infiniop.h's handle,
tensor and descriptor headers) declaration for declaration; keep the two in step.
Each operator's own declarations (native/include/infiniop/ops/<op>.h) live in its
module, infiniop_py/ops/<op>.py, which adds them when it registers its row
(ops/_calculate.py's `register`).
"""

CORE = """
typedef enum {
    INFINI_STATUS_SUCCESS = 0, INFINI_STATUS_INTERNAL_ERROR = 1, INFINI_STATUS_NOT_IMPLEMENTED = 2,
    INFINI_STATUS_BAD_PARAM = 3, INFINI_STATUS_NULL_POINTER = 4, INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED = 5,
    INFINI_STATUS_DEVICE_NOT_FOUND = 6, INFINI_STATUS_DEVICE_NOT_INITIALIZED = 7,
    INFINI_STATUS_DEVICE_ARCHITECTURE_NOT_SUPPORTED = 8, INFINI_STATUS_BAD_TENSOR_DTYPE = 10,
    INFINI_STATUS_BAD_TENSOR_SHAPE = 11, INFINI_STATUS_BAD_TENSOR_STRIDES = 12,
    INFINI_STATUS_INSUFFICIENT_WORKSPACE = 13
} infiniStatus_t;

typedef enum {
    INFINI_DEVICE_CPU = 0, INFINI_DEVICE_NVIDIA = 1, INFINI_DEVICE_CAMBRICON = 2, INFINI_DEVICE_ASCEND = 3,
    INFINI_DEVICE_METAX = 4, INFINI_DEVICE_MOORE = 5, INFINI_DEVICE_ILUVATAR = 6, INFINI_DEVICE_KUNLUN = 7,
    INFINI_DEVICE_HYGON = 8, INFINI_DEVICE_QY = 9, INFINI_DEVICE_ALI = 10, INFINI_DEVICE_TYPE_COUNT = 11
} infiniDevice_t;

typedef enum {
    INFINI_DTYPE_INVALID = 0, INFINI_DTYPE_BYTE = 1, INFINI_DTYPE_BOOL = 2, INFINI_DTYPE_I8 = 3,
    INFINI_DTYPE_I16 = 4, INFINI_DTYPE_I32 = 5, INFINI_DTYPE_I64 = 6, INFINI_DTYPE_U8 = 7, INFINI_DTYPE_U16 = 8,
    INFINI_DTYPE_U32 = 9, INFINI_DTYPE_U64 = 10, INFINI_DTYPE_F8 = 11, INFINI_DTYPE_F16 = 12,
    INFINI_DTYPE_F32 = 13, INFINI_DTYPE_F64 = 14, INFINI_DTYPE_C16 = 15, INFINI_DTYPE_C32 = 16,
    INFINI_DTYPE_C64 = 17, INFINI_DTYPE_C128 = 18, INFINI_DTYPE_BF16 = 19
} infiniDtype_t;
"""

# (ours) Not in the reference: bound only when the library has it.
STATUS_STRING = "const char *infiniGetStatusString(infiniStatus_t status);"
CPU_VECTOR_PATH = "const char *infiniopGetCpuVectorPath(void);"

RUNTIME = """
typedef void *infinirtStream_t;
typedef void *infinirtEvent_t;
typedef enum {
    INFINIRT_MEMCPY_H2H = 0, INFINIRT_MEMCPY_H2D = 1, INFINIRT_MEMCPY_D2H = 2, INFINIRT_MEMCPY_D2D = 3
} infinirtMemcpyKind_t;

infiniStatus_t infinirtInit(void);
infiniStatus_t infinirtGetDeviceCount(infiniDevice_t device, int *count);
infiniStatus_t infinirtSetDevice(infiniDevice_t device, int device_id);
infiniStatus_t infinirtGetDevice(infiniDevice_t *device, int *device_id);
infiniStatus_t infinirtDeviceSynchronize(void);
infiniStatus_t infinirtStreamCreate(infinirtStream_t *stream);
infiniStatus_t infinirtStreamDestroy(infinirtStream_t stream);
infiniStatus_t infinirtStreamSynchronize(infinirtStream_t stream);
infiniStatus_t infinirtEventCreate(infinirtEvent_t *event);
infiniStatus_t infinirtEventRecord(infinirtEvent_t event, infinirtStream_t stream);
infiniStatus_t infinirtEventSynchronize(infinirtEvent_t event);
infiniStatus_t infinirtEventElapsedTime(float *ms, infinirtEvent_t start, infinirtEvent_t end);
infiniStatus_t infinirtEventDestroy(infinirtEvent_t event);
infiniStatus_t infinirtMalloc(void **ptr, size_t size);
infiniStatus_t infinirtMallocHost(void **ptr, size_t size);
infiniStatus_t infinirtFree(void *ptr);
infiniStatus_t infinirtFreeHost(void *ptr);
infiniStatus_t infinirtMemcpy(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind);
infiniStatus_t infinirtMemcpyAsync(void *dst, const void *src, size_t size, infinirtMemcpyKind_t kind,
                                   infinirtStream_t stream);
infiniStatus_t infinirtMemset(void *ptr, int value, size_t count);
"""

OPERATORS = """
typedef struct InfiniopHandle *infiniopHandle_t;
infiniStatus_t infiniopCreateHandle(infiniopHandle_t *handle);
infiniStatus_t infiniopDestroyHandle(infiniopHandle_t handle);

typedef struct InfiniopTensorDescriptor *infiniopTensorDescriptor_t;
infiniStatus_t infiniopCreateTensorDescriptor(infiniopTensorDescriptor_t *desc_ptr, size_t ndim,
                                              const size_t *shape, const ptrdiff_t *strides, infiniDtype_t dtype);
infiniStatus_t infiniopDestroyTensorDescriptor(infiniopTensorDescriptor_t desc);

struct InfiniopDescriptor;
infiniStatus_t infiniopGetDescriptorDeviceType(const struct InfiniopDescriptor *desc, infiniDevice_t *device_type);
infiniStatus_t infiniopGetDescriptorDeviceId(const struct InfiniopDescriptor *desc, int *device_id);
"""

CDEF = CORE + STATUS_STRING + CPU_VECTOR_PATH + RUNTIME + OPERATORS
