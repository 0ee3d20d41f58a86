
// A tree level by level, `null` for a missing child, as LeetCode writes it.
void read(Reader& in, TreeNode*& root) {
    vector<TreeNode*> nodes;
    in.expect('[');
    while (in.peek() != ']') {
        if (in.null()) {
            nodes.push_back(nullptr);
        } else {
            int v;
            read(in, v);
            nodes.push_back(new TreeNode(v));
        }
        if (in.peek() == ',') in.at++;
    }
    in.at++;
    root = nodes.empty() ? nullptr : nodes[0];
    size_t child = 1;
    for (size_t i = 0; i < nodes.size() && child < nodes.size(); i++) {
        if (!nodes[i]) continue;
        nodes[i]->left = nodes[child++];
        if (child < nodes.size()) nodes[i]->right = nodes[child++];
    }
}

void write(string& out, TreeNode* root) {
    vector<TreeNode*> level;
    if (root) level.push_back(root);
    for (size_t i = 0; i < level.size(); i++) {
        if (level[i]) {
            level.push_back(level[i]->left);
            level.push_back(level[i]->right);
        }
    }
    while (!level.empty() && !level.back()) level.pop_back();
    out += '[';
    for (size_t i = 0; i < level.size(); i++) {
        if (i > 0) out += ',';
        if (level[i]) {
            write(out, level[i]->val);
        } else {
            out += "null";
        }
    }
    out += ']';
}
