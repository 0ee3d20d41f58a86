// {{problem}}: {{title}}
// Judge it with `judge run {{name}}`; `judge show {{problem}}` shows the statement.
#include <bits/stdc++.h>
using namespace std;

int main() {
    // Untie C++ streams from C's stdio: reading and writing become as fast as scanf/printf.
    ios::sync_with_stdio(false);
    cin.tie(nullptr);

    long long n;
    cin >> n;
    long long answer = n;
    // '\n', not endl: endl flushes the output every time.
    cout << answer << '\n';

#ifndef ONLINE_JUDGE
    // Debug output that the judge's build leaves out (it compiles with -DONLINE_JUDGE).
    cerr << "n = " << n << '\n';
#endif
}
