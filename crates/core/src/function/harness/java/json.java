/** Reads the arguments, one JSON value each, from stdin read whole. */
final class JsonIn {
    private final byte[] data;
    private int at;

    JsonIn(InputStream in) throws IOException {
        data = in.readAllBytes();
    }

    static RuntimeException fail(String message) {
        return refuse("unreadable", message);
    }

    /** Says on stderr, after the judge's marker, why the harness prints no value (`kind`: the
     * judge's word for the case), and ends the run with the harness's own exit status. */
    static RuntimeException refuse(String kind, String words) {
        System.out.flush();
        System.err.println("@judge-harness " + kind + " " + words);
        System.err.flush();
        System.exit(JUDGE_HARNESS_EXIT);
        return new IllegalStateException(words);
    }

    private byte peek() {
        while (at < data.length && (data[at] == ' ' || data[at] == '\n' || data[at] == '\r' || data[at] == '\t')) at++;
        if (at == data.length) throw fail("the input ends early");
        return data[at];
    }

    private void expect(char c) {
        if (peek() != c) throw fail("expected `" + c + "` at byte " + at);
        at++;
    }

    /** The text of a number, a true or false, or a null. */
    private String token() {
        peek();
        int start = at;
        while (at < data.length && (Character.isLetterOrDigit(data[at]) || data[at] == '-' || data[at] == '+' || data[at] == '.')) at++;
        return new String(data, start, at - start);
    }

    /** An integer's digits parsed where they lie: a String per number, parsed after, cost the
     * harness twice a program's fast reader on a big array. The judge checked every input's
     * range before the run; nineteen digits fit a long (the most negative one wraps to itself). */
    private long integer(String type) {
        peek();
        int start = at;
        boolean negative = data[at] == '-';
        if (negative) at++;
        long v = 0;
        int digits = 0;
        for (; at < data.length && data[at] >= '0' && data[at] <= '9' && digits < 19; digits++) v = v * 10 + (data[at++] - '0');
        boolean more = at < data.length && (data[at] == '.' || data[at] == 'e' || data[at] == 'E' || (data[at] >= '0' && data[at] <= '9'));
        if (digits == 0 || more) {
            at = start;
            throw fail("`" + token() + "` is not " + type);
        }
        return negative ? -v : v;
    }

    int readInt() {
        int start = at;
        long v = integer("an int");
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) throw fail("`" + new String(data, start, at - start).trim() + "` is not an int");
        return (int) v;
    }

    long readLong() {
        return integer("a long");
    }

    double readDouble() {
        String t = token();
        try { return Double.parseDouble(t); } catch (NumberFormatException e) { throw fail("`" + t + "` is not a double"); }
    }

    boolean readBool() {
        String t = token();
        if (!t.equals("true") && !t.equals("false")) throw fail("`" + t + "` is not a bool");
        return t.equals("true");
    }

    char readChar() {
        String s = readString();
        if (s.length() != 1) throw fail("\"" + s + "\" is not one character");
        return s.charAt(0);
    }

    String readString() {
        expect('"');
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            if (at >= data.length) throw fail("a string does not end");
            byte c = data[at++];
            if (c == '"') return new String(out.toByteArray(), StandardCharsets.UTF_8);
            if (c != '\\') { out.write(c); continue; }
            byte e = data[at++];
            switch (e) {
                case 'n': out.write('\n'); break;
                case 't': out.write('\t'); break;
                case 'r': out.write('\r'); break;
                case 'b': out.write('\b'); break;
                case 'f': out.write('\f'); break;
                case 'u': {
                    // A character outside the BMP is two escapes, a surrogate pair.
                    String text = String.valueOf((char) Integer.parseInt(new String(data, at, 4), 16));
                    at += 4;
                    if (Character.isHighSurrogate(text.charAt(0)) && at + 6 <= data.length && data[at] == '\\' && data[at + 1] == 'u') {
                        text += (char) Integer.parseInt(new String(data, at + 2, 4), 16);
                        at += 6;
                    }
                    out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
                    break;
                }
                default: out.write(e);
            }
        }
    }

    /** How many elements the array that starts here has, read ahead without moving. */
    private int count() {
        peek();
        int depth = 0, commas = 0;
        boolean any = false;
        for (int i = at; i < data.length; i++) {
            byte c = data[i];
            if (c == '"') {
                any = true;
                for (i++; i < data.length && data[i] != '"'; i++) if (data[i] == '\\') i++;
            } else if (c == '[') {
                any |= depth == 1;
                depth++;
            } else if (c == ']') {
                if (--depth == 0) break;
            } else if (c == ',' && depth == 1) commas++;
            else if (depth == 1 && c > ' ') any = true;
        }
        return any ? commas + 1 : 0;
    }

    /** `[a, b, ...]`, each element by `element`, into an array `make` makes. */
    <T> T[] readArray(java.util.function.IntFunction<T[]> make, java.util.function.Supplier<T> element) {
        T[] items = make.apply(count());
        expect('[');
        for (int i = 0; i < items.length; i++) {
            if (i > 0) expect(',');
            items[i] = element.get();
        }
        expect(']');
        return items;
    }

    /** After an element: whether a comma follows (then passed), or the array ends. */
    private boolean comma() {
        if (peek() != ',') return false;
        at++;
        return true;
    }

    /** Grown as read, not counted ahead, and in one loop with no call per number: the ints of
     * a big array are most of a big input, and the JVM's quick compiler inlines little. */
    int[] readIntArray() {
        expect('[');
        int[] items = new int[16];
        int n = 0;
        byte[] d = data;
        int i = at;
        while (true) {
            while (i < d.length && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t')) i++;
            if (n == 0 && i < d.length && d[i] == ']') break;
            int start = i;
            boolean negative = i < d.length && d[i] == '-';
            if (negative) i++;
            long v = 0;
            int digits = 0;
            for (; i < d.length && d[i] >= '0' && d[i] <= '9' && digits < 11; digits++) v = v * 10 + (d[i++] - '0');
            boolean more = i < d.length && (d[i] == '.' || d[i] == 'e' || d[i] == 'E' || (d[i] >= '0' && d[i] <= '9'));
            if (digits == 0 || more || v > (negative ? 2147483648L : 2147483647L)) {
                at = start;
                throw fail("`" + token() + "` is not an int");
            }
            if (n == items.length) items = Arrays.copyOf(items, n * 2);
            items[n++] = (int) (negative ? -v : v);
            while (i < d.length && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t')) i++;
            if (i < d.length && d[i] == ',') {
                i++;
                continue;
            }
            break;
        }
        at = i;
        expect(']');
        return n == items.length ? items : Arrays.copyOf(items, n);
    }

    long[] readLongArray() {
        expect('[');
        long[] items = new long[16];
        int n = 0;
        if (peek() != ']') {
            do {
                if (n == items.length) items = Arrays.copyOf(items, n * 2);
                items[n++] = readLong();
            } while (comma());
        }
        expect(']');
        return n == items.length ? items : Arrays.copyOf(items, n);
    }

    double[] readDoubleArray() {
        double[] items = new double[count()];
        expect('[');
        for (int i = 0; i < items.length; i++) { if (i > 0) expect(','); items[i] = readDouble(); }
        expect(']');
        return items;
    }

    boolean[] readBoolArray() {
        boolean[] items = new boolean[count()];
        expect('[');
        for (int i = 0; i < items.length; i++) { if (i > 0) expect(','); items[i] = readBool(); }
        expect(']');
        return items;
    }

    char[] readCharArray() {
        char[] items = new char[count()];
        expect('[');
        for (int i = 0; i < items.length; i++) { if (i > 0) expect(','); items[i] = readChar(); }
        expect(']');
        return items;
    }

    ListNode readList() {
        int[] values = readIntArray();
        ListNode head = null;
        for (int i = values.length - 1; i >= 0; i--) head = new ListNode(values[i], head);
        return head;
    }

    /** A tree level by level: each node present takes the next two values as its children. */
    TreeNode readTree() {
        TreeNode[] nodes = readArray(TreeNode[]::new, () -> {
            String t = token();
            if (t.equals("null")) return null;
            try { return new TreeNode(Integer.parseInt(t)); } catch (NumberFormatException e) { throw fail("`" + t + "` is not an int"); }
        });
        if (nodes.length == 0) return null;
        ArrayList<TreeNode> parents = new ArrayList<>(List.of(nodes[0]));
        int next = 1;
        for (int i = 0; i < parents.size() && next < nodes.length; i++) {
            TreeNode parent = parents.get(i);
            parent.left = nodes[next++];
            if (parent.left != null) parents.add(parent.left);
            if (next < nodes.length) {
                parent.right = nodes[next++];
                if (parent.right != null) parents.add(parent.right);
            }
        }
        return nodes[0];
    }
}

/** Writes the result as JSON on one line. */
final class JsonOut {
    static void print(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        out.append('\n');
        PrintStream stdout = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        stdout.print(out);
        stdout.flush();
    }

    /** A list or a tree: LeetCode writes an empty one, null, as `[]`. */
    static void printNode(Object value) {
        print(value == null ? new int[0] : value);
    }

    static void write(StringBuilder out, Object value) {
        if (value == null) out.append("null");
        else if (value instanceof Character) writeString(out, value.toString());
        else if (value instanceof String) writeString(out, (String) value);
        // NaN and the infinities have no JSON: the judge's case, not the solution's.
        else if (value instanceof Double && !Double.isFinite((Double) value)) throw notJson((Double) value);
        // Java writes the shortest digits that read back as the same double.
        else if (value instanceof Number || value instanceof Boolean) out.append(value);
        else if (value instanceof int[]) { int[] a = (int[]) value; out.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) out.append(','); out.append(a[i]); } out.append(']'); }
        else if (value instanceof long[]) { long[] a = (long[]) value; out.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) out.append(','); out.append(a[i]); } out.append(']'); }
        else if (value instanceof double[]) { double[] a = (double[]) value; out.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) out.append(','); if (!Double.isFinite(a[i])) throw notJson(a[i]); out.append(a[i]); } out.append(']'); }
        else if (value instanceof boolean[]) { boolean[] a = (boolean[]) value; out.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) out.append(','); out.append(a[i]); } out.append(']'); }
        else if (value instanceof char[]) { char[] a = (char[]) value; out.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) out.append(','); writeString(out, String.valueOf(a[i])); } out.append(']'); }
        else if (value instanceof Object[]) { Object[] a = (Object[]) value; out.append('['); for (int i = 0; i < a.length; i++) { if (i > 0) out.append(','); write(out, a[i]); } out.append(']'); }
        else if (value instanceof ListNode) { out.append('['); for (ListNode n = (ListNode) value; n != null; n = n.next) { out.append(n.val); if (n.next != null) out.append(','); } out.append(']'); }
        else if (value instanceof TreeNode) writeTree(out, (TreeNode) value);
        else throw new IllegalArgumentException("cannot write " + value.getClass() + " as JSON");
    }

    static RuntimeException notJson(double v) {
        return JsonIn.refuse("not-json", Double.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
    }

    /** Level by level, null for a missing child, the trailing nulls dropped. */
    static void writeTree(StringBuilder out, TreeNode root) {
        ArrayList<TreeNode> level = new ArrayList<>();
        level.add(root);
        for (int i = 0; i < level.size(); i++) {
            TreeNode n = level.get(i);
            if (n != null) { level.add(n.left); level.add(n.right); }
        }
        int end = level.size();
        while (end > 0 && level.get(end - 1) == null) end--;
        out.append('[');
        for (int i = 0; i < end; i++) {
            if (i > 0) out.append(',');
            out.append(level.get(i) == null ? "null" : String.valueOf(level.get(i).val));
        }
        out.append(']');
    }

    static void writeString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c == '\n') out.append("\\n");
            else if (c == '\t') out.append("\\t");
            else if (c == '\r') out.append("\\r");
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        out.append('"');
    }
}
