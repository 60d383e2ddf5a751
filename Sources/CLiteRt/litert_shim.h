// Our own declarations for the part of the LiteRT "CompiledModel" C API that
// SwiftVisionTasks uses. libLiteRt.so (PyPI ai-edge-litert 2.3.0) ships no headers;
// the layouts below were checked on that build (see reference/litert-c-api.md).
#ifndef SWIFT_VISION_TASKS_LITERT_SHIM_H
#define SWIFT_VISION_TASKS_LITERT_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct LiteRtEnvironmentT *LiteRtEnvironment;
typedef struct LiteRtModelT *LiteRtModel;
typedef struct LiteRtSignatureT *LiteRtSignature;
typedef struct LiteRtTensorT *LiteRtTensor;
typedef struct LiteRtOptionsT *LiteRtOptions;
typedef struct LiteRtOpaqueOptionsT *LiteRtOpaqueOptions;
typedef struct LiteRtCompiledModelT *LiteRtCompiledModel;
typedef struct LiteRtTensorBufferT *LiteRtTensorBuffer;
typedef struct LiteRtTensorBufferRequirementsT *LiteRtTensorBufferRequirements;

typedef int LiteRtStatus;           // 0 = ok; see LiteRTStatus.swift for the codes.
typedef size_t LiteRtParamIndex;
typedef int LiteRtHwAcceleratorSet; // bit 0 = CPU.

typedef enum LiteRtElementType {
  kLiteRtElementTypeNone = 0,
  kLiteRtElementTypeFloat32 = 1,
  kLiteRtElementTypeInt32 = 2,
  kLiteRtElementTypeUInt8 = 3,
  kLiteRtElementTypeInt64 = 4,
  kLiteRtElementTypeInt16 = 7,
  kLiteRtElementTypeInt8 = 9,
  kLiteRtElementTypeFloat16 = 10,
  kLiteRtElementTypeBool = 6,
} LiteRtElementType;

#define LITERT_SHIM_MAX_RANK 8

typedef struct LiteRtLayout {
  unsigned int rank : 7;
  unsigned int has_strides : 1;
  int32_t dimensions[LITERT_SHIM_MAX_RANK];
  uint32_t strides[LITERT_SHIM_MAX_RANK];
} LiteRtLayout;

typedef struct LiteRtRankedTensorType {
  LiteRtElementType element_type;
  LiteRtLayout layout;
} LiteRtRankedTensorType;

typedef struct LiteRtQuantizationPerTensor {
  float scale;
  int64_t zero_point;
} LiteRtQuantizationPerTensor;

typedef enum LiteRtTensorTypeId {
  kLiteRtRankedTensorType = 0,
  kLiteRtUnrankedTensorType = 1,
} LiteRtTensorTypeId;

typedef enum LiteRtQuantizationTypeId {
  kLiteRtQuantizationNone = 0,
  kLiteRtQuantizationPerTensor = 1,
} LiteRtQuantizationTypeId;

typedef enum LiteRtTensorBufferLockMode {
  kLiteRtTensorBufferLockModeRead = 0,
  kLiteRtTensorBufferLockModeWrite = 1,
  kLiteRtTensorBufferLockModeReadWrite = 2,
} LiteRtTensorBufferLockMode;

typedef enum LiteRtAnyType {
  kLiteRtAnyTypeNone = 0,
  kLiteRtAnyTypeInt = 2,
} LiteRtAnyType;

typedef struct LiteRtAny {
  LiteRtAnyType type;
  union {
    int64_t int_value;
    const void *ptr_value;
  };
} LiteRtAny;

typedef enum LiteRtEnvOptionTag {
  kLiteRtEnvOptionTagMinLoggerSeverity = 25,
} LiteRtEnvOptionTag;

typedef struct LiteRtEnvOption {
  LiteRtEnvOptionTag tag;
  LiteRtAny value;
} LiteRtEnvOption;

_Static_assert(sizeof(LiteRtLayout) == 68, "LiteRtLayout is 68 bytes in libLiteRt.so");
_Static_assert(sizeof(LiteRtRankedTensorType) == 72, "LiteRtRankedTensorType is 72 bytes");
_Static_assert(sizeof(LiteRtQuantizationPerTensor) == 16, "LiteRtQuantizationPerTensor is 16 bytes");
_Static_assert(sizeof(LiteRtEnvOption) == 24, "LiteRtEnvOption is 24 bytes");

LiteRtStatus LiteRtCreateEnvironment(int num_options, const LiteRtEnvOption *options,
                                     LiteRtEnvironment *environment);
void LiteRtDestroyEnvironment(LiteRtEnvironment environment);

LiteRtStatus LiteRtCreateModelFromBuffer(LiteRtEnvironment environment, const void *buffer_addr,
                                         size_t buffer_size, LiteRtModel *model);
void LiteRtDestroyModel(LiteRtModel model);
LiteRtStatus LiteRtGetNumModelSignatures(LiteRtModel model, LiteRtParamIndex *num_signatures);
LiteRtStatus LiteRtGetModelSignature(LiteRtModel model, LiteRtParamIndex signature_index,
                                     LiteRtSignature *signature);
LiteRtStatus LiteRtGetModelMetadata(LiteRtModel model, const char *metadata_key,
                                    const void **metadata_buffer, size_t *metadata_buffer_size);

LiteRtStatus LiteRtGetNumSignatureInputs(LiteRtSignature signature, LiteRtParamIndex *num_inputs);
LiteRtStatus LiteRtGetNumSignatureOutputs(LiteRtSignature signature, LiteRtParamIndex *num_outputs);
LiteRtStatus LiteRtGetSignatureInputTensorByIndex(LiteRtSignature signature,
                                                  LiteRtParamIndex input_idx, LiteRtTensor *tensor);
LiteRtStatus LiteRtGetSignatureOutputTensorByIndex(LiteRtSignature signature,
                                                   LiteRtParamIndex output_idx, LiteRtTensor *tensor);

LiteRtStatus LiteRtGetTensorName(LiteRtTensor tensor, const char **name);
LiteRtStatus LiteRtGetTensorTypeId(LiteRtTensor tensor, LiteRtTensorTypeId *type_id);
LiteRtStatus LiteRtGetRankedTensorType(LiteRtTensor tensor, LiteRtRankedTensorType *ranked_tensor_type);
LiteRtStatus LiteRtGetQuantizationTypeId(LiteRtTensor tensor, LiteRtQuantizationTypeId *q_type_id);
LiteRtStatus LiteRtGetPerTensorQuantization(LiteRtTensor tensor,
                                            LiteRtQuantizationPerTensor *per_tensor_quantization);

LiteRtStatus LiteRtCreateOptions(LiteRtOptions *options);
void LiteRtDestroyOptions(LiteRtOptions options);
LiteRtStatus LiteRtSetOptionsHardwareAccelerators(LiteRtOptions options,
                                                  LiteRtHwAcceleratorSet hardware_accelerators);
LiteRtStatus LiteRtCreateOpaqueOptions(const char *payload_identifier, void *payload_data,
                                       void (*payload_destructor)(void *payload_data),
                                       LiteRtOpaqueOptions *options);
void LiteRtDestroyOpaqueOptions(LiteRtOpaqueOptions options);
LiteRtStatus LiteRtAddOpaqueOptions(LiteRtOptions options, LiteRtOpaqueOptions opaque_options);

LiteRtStatus LiteRtCreateCompiledModel(LiteRtEnvironment environment, LiteRtModel model,
                                       LiteRtOptions compilation_options,
                                       LiteRtCompiledModel *compiled_model);
void LiteRtDestroyCompiledModel(LiteRtCompiledModel compiled_model);
LiteRtStatus LiteRtGetCompiledModelInputBufferRequirements(
    LiteRtCompiledModel compiled_model, LiteRtParamIndex signature_index,
    LiteRtParamIndex input_index, LiteRtTensorBufferRequirements *buffer_requirements);
LiteRtStatus LiteRtGetCompiledModelOutputBufferRequirements(
    LiteRtCompiledModel compiled_model, LiteRtParamIndex signature_index,
    LiteRtParamIndex output_index, LiteRtTensorBufferRequirements *buffer_requirements);
LiteRtStatus LiteRtRunCompiledModel(LiteRtCompiledModel compiled_model,
                                    LiteRtParamIndex signature_index, size_t num_input_buffers,
                                    LiteRtTensorBuffer *input_buffers, size_t num_output_buffers,
                                    LiteRtTensorBuffer *output_buffers);

LiteRtStatus LiteRtCreateManagedTensorBufferFromRequirements(
    LiteRtEnvironment env, const LiteRtRankedTensorType *tensor_type,
    LiteRtTensorBufferRequirements requirements, LiteRtTensorBuffer *buffer);
void LiteRtDestroyTensorBuffer(LiteRtTensorBuffer buffer);
LiteRtStatus LiteRtLockTensorBuffer(LiteRtTensorBuffer tensor_buffer, void **host_mem_addr,
                                    LiteRtTensorBufferLockMode lock_mode);
LiteRtStatus LiteRtUnlockTensorBuffer(LiteRtTensorBuffer buffer);

// glibc's dladdr and Dl_info (<dlfcn.h>), declared here because <dlfcn.h> has them only with
// _GNU_SOURCE, which Swift's Glibc module is built without. LiteRTBuild asks it which file holds
// LiteRT's functions. The asm label binds our name to glibc's symbol.
typedef struct LiteRtShimSymbolInfo {
  const char *file_name;      // dli_fname: the path of the shared object holding the address
  void *file_base;            // dli_fbase
  const char *symbol_name;    // dli_sname
  void *symbol_address;       // dli_saddr
} LiteRtShimSymbolInfo;
_Static_assert(sizeof(LiteRtShimSymbolInfo) == 4 * sizeof(void *), "Dl_info is four pointers");
int litert_shim_dladdr(const void *address, LiteRtShimSymbolInfo *info) __asm__("dladdr");

#endif
