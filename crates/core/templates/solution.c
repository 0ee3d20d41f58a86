/* {{problem}}: {{title}}
 * Judge it with `judge run {{name}}`; `judge show {{problem}}` shows the statement. */
#include <stdio.h>

int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    long long answer = n;
    printf("%lld\n", answer);
#ifndef ONLINE_JUDGE
    /* Debug output that the judge's build leaves out (it compiles with -DONLINE_JUDGE). */
    fprintf(stderr, "n = %lld\n", n);
#endif
    return 0;
}
