    // A list from the array of its values.
    const toList = (values) => {
        let head = null;
        for (let i = values.length - 1; i >= 0; i--) head = new ListNode(values[i], head);
        return head;
    };
    // A tree from its level order: each node present takes the next two values as its
    // children, null for none.
    const toTree = (values) => {
        const nodes = values.map((v) => (v === null ? null : new TreeNode(v)));
        const parents = nodes.length > 0 ? [nodes[0]] : [];
        let next = 1;
        for (let i = 0; i < parents.length && next < nodes.length; i++) {
            for (const side of ['left', 'right']) {
                if (next < nodes.length) {
                    parents[i][side] = nodes[next];
                    if (nodes[next] !== null) parents.push(nodes[next]);
                    next++;
                }
            }
        }
        return nodes.length > 0 ? nodes[0] : null;
    };
    const listOut = (head) => {
        const values = [];
        for (; head; head = head.next) values.push(head.val);
        return values;
    };
    // A tree's level order, null for a missing child, the trailing nulls dropped.
    const treeOut = (root) => {
        const level = [root || null];
        for (let i = 0; i < level.length; i++) {
            if (level[i]) level.push(level[i].left || null, level[i].right || null);
        }
        while (level.length > 0 && level[level.length - 1] === null) level.pop();
        return level.map((node) => (node === null ? null : node.val));
    };
    // Says on stderr, after the judge's marker, why the harness prints no value (`kind`: the
    // judge's word for the case), and ends the run with the harness's own exit status (a write
    // to a pipe or a file is synchronous: it is out before the exit).
    const judgeRefuse = (kind, words) => {
        process.stderr.write('@judge-harness ' + kind + ' ' + words + '\n');
        process.exit(JUDGE_HARNESS_EXIT);
    };
    const judgeParse = (line) => {
        try {
            return JSON.parse(line);
        } catch (e) {
            return judgeRefuse('unreadable', e.message);
        }
    };
    const judgeKind = (v) => {
        if (v === null || v === undefined) return String(v);
        if (Array.isArray(v)) return 'an array';
        return (typeof v === 'object' ? 'an ' : 'a ') + typeof v;
    };
    const judgeRanges = { int: 2 ** 31, long: 2 ** 63 };
    // What `v` is instead of a `ty` and where, or null when it is one: JavaScript's values
    // carry their own types, so one of another type than declared is the solution's wrong
    // answer, said as such; a double JSON cannot write (NaN, an infinity) is the judge's case.
    const judgeWrong = (v, ty, at) => {
        if (ty.endsWith('[]')) {
            if (!Array.isArray(v)) return [judgeKind(v), at];
            for (let i = 0; i < v.length; i++) {
                const wrong = judgeWrong(v[i], ty.slice(0, -2), at + '[' + i + ']');
                if (wrong) return wrong;
            }
            return null;
        }
        if (ty in judgeRanges) {
            if (typeof v !== 'number') return [judgeKind(v), at];
            if (!Number.isInteger(v)) return ['the number ' + v, at];
            if (v < -judgeRanges[ty] || v >= judgeRanges[ty]) {
                return ['the integer ' + v + ', out of ' + ty + "'s range,", at];
            }
            return null;
        }
        if (ty === 'double') {
            if (typeof v !== 'number') return [judgeKind(v), at];
            if (!Number.isFinite(v)) judgeRefuse('not-json', String(v) + (at ? ' (at ' + at + ')' : ''));
            return null;
        }
        if (ty === 'bool') return typeof v === 'boolean' ? null : [judgeKind(v), at];
        if (typeof v !== 'string') return [judgeKind(v), at];
        if (ty === 'char' && v.length !== 1) return ['a string of length ' + v.length, at];
        return null;
    };
    // The returned value, checked against the declared type `ty`, made JSON's.
    const judgeChecked = (v, ty) => {
        let wrong = null;
        if (ty === 'ListNode' || ty === 'TreeNode') {
            if (v !== null && v !== undefined && !(v instanceof (ty === 'ListNode' ? ListNode : TreeNode))) {
                wrong = [judgeKind(v), ''];
            } else {
                v = ty === 'ListNode' ? listOut(v) : treeOut(v);
                wrong = judgeWrong(v.filter((x) => x !== null), 'int[]', '');
            }
        } else {
            wrong = judgeWrong(v, ty, '');
        }
        if (wrong) {
            judgeRefuse('wrong-type', 'returned ' + wrong[0] + (wrong[1] ? ' at ' + wrong[1] : '') + ' where ' + ty + ' was declared');
        }
        return v;
    };
