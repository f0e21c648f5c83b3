/* A fake libnvidia-ml.so.1 for the driver probe tests: the NVML entry points the probe calls,
 * answering from environment variables instead of a GPU.
 *   EXTDEPS_FAKE_NVML_DRIVER      nvmlSystemGetDriverVersion's answer (default "550.54.15")
 *   EXTDEPS_FAKE_NVML_CUDA        nvmlSystemGetCudaDriverVersion(_v2)'s answer (default 12040)
 *   EXTDEPS_FAKE_NVML_NO_V2=1     nvmlSystemGetCudaDriverVersion_v2 says FUNCTION_NOT_FOUND (13),
 *                                 as drivers older than the _v2 entry point do
 *   EXTDEPS_FAKE_NVML_DEVICES     "name:major.minor:bytes[:mig];..." (mig: 1 enabled, 0 disabled,
 *                                 absent: NOT_SUPPORTED as on GPUs without MIG)
 *   EXTDEPS_FAKE_NVML_INIT_ERROR  nvmlInit_v2's return code (default 0)
 *   EXTDEPS_FAKE_NVML_HANG=1      nvmlInit_v2 never returns
 *   EXTDEPS_FAKE_NVML_CRASH=1     nvmlInit_v2 raises SIGSEGV
 * Device i has the UUID "GPU-0000000i-fake-...". */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

enum {
  SUCCESS = 0,
  UNINITIALIZED = 1,
  INVALID_ARGUMENT = 2,
  NOT_SUPPORTED = 3,
  INSUFFICIENT_SIZE = 7,
  FUNCTION_NOT_FOUND = 13
};
enum { MAX_DEVICES = 16 };

struct device {
  char name[96];
  int major, minor;
  unsigned long long memory;
  int mig; /* -1: not supported */
};

typedef struct {
  unsigned long long total, free, used;
} fake_memory;

static int initialized;
static unsigned int device_count;
static struct device devices[MAX_DEVICES];

static int env_flag(const char* name) {
  const char* v = getenv(name);
  return v && strcmp(v, "1") == 0;
}

/* Fields split from the right after the name: "NVIDIA A100-SXM4-80GB:8.0:85899345920:1". The
 * name may hold colons, so the count of numeric fields decides where it ends. */
static void parse_devices(void) {
  const char* spec = getenv("EXTDEPS_FAKE_NVML_DEVICES");
  device_count = 0;
  if (!spec) return;
  char* copy = strdup(spec);
  char* save = NULL;
  for (char* item = strtok_r(copy, ";", &save); item && device_count < MAX_DEVICES;
       item = strtok_r(NULL, ";", &save)) {
    char* fields[3] = {NULL, NULL, NULL};
    int n = 0;
    char* colon;
    while (n < 3 && (colon = strrchr(item, ':')) != NULL) {
      fields[n++] = colon + 1;
      *colon = '\0';
    }
    if (n < 2) continue;
    /* fields are right to left: with three, [0] is mig, [1] memory, [2] cc */
    const char* cc = n == 3 ? fields[2] : fields[1];
    const char* mem = n == 3 ? fields[1] : fields[0];
    struct device* d = &devices[device_count++];
    snprintf(d->name, sizeof d->name, "%s", item);
    d->major = d->minor = 0;
    sscanf(cc, "%d.%d", &d->major, &d->minor);
    d->memory = strtoull(mem, NULL, 10);
    d->mig = n == 3 ? atoi(fields[0]) : -1;
  }
  free(copy);
}

static int copy_text(char* out, unsigned int length, const char* text) {
  if (!out) return INVALID_ARGUMENT;
  if (strlen(text) + 1 > length) return INSUFFICIENT_SIZE;
  memcpy(out, text, strlen(text) + 1);
  return SUCCESS;
}

/* A device handle is the address of its slot. */
static struct device* from_handle(void* handle) {
  struct device* d = (struct device*)handle;
  if (!initialized || d < devices || d >= devices + device_count) return NULL;
  return d;
}

EXPORT int nvmlInit_v2(void) {
  if (env_flag("EXTDEPS_FAKE_NVML_HANG"))
    for (;;) pause();
  if (env_flag("EXTDEPS_FAKE_NVML_CRASH")) raise(SIGSEGV);
  const char* err = getenv("EXTDEPS_FAKE_NVML_INIT_ERROR");
  if (err && atoi(err) != 0) return atoi(err);
  parse_devices();
  initialized = 1;
  return SUCCESS;
}

EXPORT int nvmlShutdown(void) {
  if (!initialized) return UNINITIALIZED;
  initialized = 0;
  return SUCCESS;
}

EXPORT const char* nvmlErrorString(int result) {
  switch (result) {
    case 0: return "Success";
    case 9: return "Driver Not Loaded";
    case 18: return "RM has detected an NVML/RM version mismatch.";
    default: return "Unknown Error";
  }
}

EXPORT int nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  if (!initialized) return UNINITIALIZED;
  const char* v = getenv("EXTDEPS_FAKE_NVML_DRIVER");
  return copy_text(version, length, v ? v : "550.54.15");
}

static int cuda_version(int* version) {
  if (!initialized) return UNINITIALIZED;
  if (!version) return INVALID_ARGUMENT;
  const char* v = getenv("EXTDEPS_FAKE_NVML_CUDA");
  *version = v ? atoi(v) : 12040;
  return SUCCESS;
}

EXPORT int nvmlSystemGetCudaDriverVersion_v2(int* version) {
  if (env_flag("EXTDEPS_FAKE_NVML_NO_V2")) return FUNCTION_NOT_FOUND;
  return cuda_version(version);
}

EXPORT int nvmlSystemGetCudaDriverVersion(int* version) { return cuda_version(version); }

EXPORT int nvmlDeviceGetCount_v2(unsigned int* count) {
  if (!initialized) return UNINITIALIZED;
  if (!count) return INVALID_ARGUMENT;
  *count = device_count;
  return SUCCESS;
}

EXPORT int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
  if (!initialized) return UNINITIALIZED;
  if (!device || index >= device_count) return INVALID_ARGUMENT;
  *device = &devices[index];
  return SUCCESS;
}

EXPORT int nvmlDeviceGetName(void* handle, char* name, unsigned int length) {
  struct device* d = from_handle(handle);
  return d ? copy_text(name, length, d->name) : INVALID_ARGUMENT;
}

EXPORT int nvmlDeviceGetUUID(void* handle, char* uuid, unsigned int length) {
  struct device* d = from_handle(handle);
  if (!d) return INVALID_ARGUMENT;
  char text[80];
  snprintf(text, sizeof text, "GPU-%08x-fake-4000-8000-00000000%04x", (unsigned)(d - devices),
           (unsigned)(d - devices));
  return copy_text(uuid, length, text);
}

EXPORT int nvmlDeviceGetCudaComputeCapability(void* handle, int* major, int* minor) {
  struct device* d = from_handle(handle);
  if (!d || !major || !minor) return INVALID_ARGUMENT;
  *major = d->major;
  *minor = d->minor;
  return SUCCESS;
}

EXPORT int nvmlDeviceGetMemoryInfo(void* handle, fake_memory* memory) {
  struct device* d = from_handle(handle);
  if (!d || !memory) return INVALID_ARGUMENT;
  memory->total = d->memory;
  memory->used = d->memory / 4;
  memory->free = d->memory - memory->used;
  return SUCCESS;
}

EXPORT int nvmlDeviceGetMigMode(void* handle, unsigned int* current, unsigned int* pending) {
  struct device* d = from_handle(handle);
  if (!d || !current || !pending) return INVALID_ARGUMENT;
  if (d->mig < 0) return NOT_SUPPORTED;
  *current = *pending = (unsigned int)d->mig;
  return SUCCESS;
}
