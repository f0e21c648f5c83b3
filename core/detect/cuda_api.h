// The few CUDA Driver API and NVML entry points the probe calls, declared from NVIDIA's
// documentation so that no CUDA header or toolkit is needed to build (DESIGN.md decision 5).
// Only function pointer types: the libraries are loaded with dlopen in the probe child.
#pragma once

#include <cstddef>

namespace extdeps::detect::cuda_api {

// CUDA Driver API (cuda.h). CUresult and CUdevice_attribute are C enums, int-sized.
using CUresult = int;
using CUdevice = int;
struct CUuuid {
  char bytes[16];
};

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;

using cuInit_t = CUresult (*)(unsigned int flags);
using cuDriverGetVersion_t = CUresult (*)(int* driver_version);
using cuDeviceGetCount_t = CUresult (*)(int* count);
using cuDeviceGet_t = CUresult (*)(CUdevice* device, int ordinal);
using cuDeviceGetAttribute_t = CUresult (*)(int* pi, int attrib, CUdevice dev);
using cuDeviceGetName_t = CUresult (*)(char* name, int len, CUdevice dev);
using cuDeviceTotalMem_v2_t = CUresult (*)(std::size_t* bytes, CUdevice dev);
using cuDeviceGetUuid_t = CUresult (*)(CUuuid* uuid, CUdevice dev);
using cuGetErrorName_t = CUresult (*)(CUresult error, const char** name);

// NVML (nvml.h). nvmlReturn_t is a C enum; nvmlDevice_t an opaque pointer.
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

inline constexpr nvmlReturn_t NVML_SUCCESS = 0;
inline constexpr nvmlReturn_t NVML_ERROR_NOT_SUPPORTED = 3;
inline constexpr nvmlReturn_t NVML_ERROR_DRIVER_NOT_LOADED = 9;
inline constexpr nvmlReturn_t NVML_ERROR_FUNCTION_NOT_FOUND = 13;
inline constexpr nvmlReturn_t NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18;
inline constexpr unsigned int NVML_DEVICE_MIG_ENABLE = 1;

using nvmlInit_v2_t = nvmlReturn_t (*)();
using nvmlShutdown_t = nvmlReturn_t (*)();
using nvmlSystemGetDriverVersion_t = nvmlReturn_t (*)(char* version, unsigned int length);
using nvmlErrorString_t = const char* (*)(nvmlReturn_t result);
using nvmlSystemGetCudaDriverVersion_v2_t = nvmlReturn_t (*)(int* cuda_driver_version);
using nvmlSystemGetCudaDriverVersion_t = nvmlReturn_t (*)(int* cuda_driver_version);
using nvmlDeviceGetCount_v2_t = nvmlReturn_t (*)(unsigned int* count);
using nvmlDeviceGetHandleByIndex_v2_t = nvmlReturn_t (*)(unsigned int index, nvmlDevice_t* device);
using nvmlDeviceGetName_t = nvmlReturn_t (*)(nvmlDevice_t device, char* name, unsigned int length);
using nvmlDeviceGetCudaComputeCapability_t = nvmlReturn_t (*)(nvmlDevice_t device, int* major, int* minor);
using nvmlDeviceGetMemoryInfo_t = nvmlReturn_t (*)(nvmlDevice_t device, nvmlMemory_t* memory);
using nvmlDeviceGetUUID_t = nvmlReturn_t (*)(nvmlDevice_t device, char* uuid, unsigned int length);
using nvmlDeviceGetMigMode_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int* current_mode,
                                                unsigned int* pending_mode);

}  // namespace extdeps::detect::cuda_api
