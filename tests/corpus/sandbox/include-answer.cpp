// expect: CE
// unsandboxed: AC
// needs: g++
// why: #include of the answer file (the number it holds becomes the program's): sandboxed, the compiler sees only the source and its toolchain, so it does not compile.
#include <cstdio>

int main() {
    printf("%d\n",
#include "@WORKSPACE@/testcases/double/1.out"
    );
}
