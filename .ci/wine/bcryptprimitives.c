/* Wine before 9.0 lacks bcryptprimitives.dll, whose ProcessPrng the Rust standard library
 * (1.78 and later) calls on Windows for its random seeds: a test binary then fails to load
 * (status c0000135). This stand-in forwards to RtlGenRandom (advapi32's SystemFunction036).
 * .ci/run builds it with MinGW into the Wine prefix; Windows itself and newer Wine ship the
 * real one. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
