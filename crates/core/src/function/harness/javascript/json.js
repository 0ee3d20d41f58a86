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
