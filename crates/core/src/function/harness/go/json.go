// jsonReader reads the arguments, one JSON value each, from stdin read whole.
type jsonReader struct {
	data []byte
	at   int
}

func newJSONReader() *jsonReader {
	data, err := io.ReadAll(bufio.NewReaderSize(os.Stdin, 1<<16))
	if err != nil {
		jsonFail("stdin: " + err.Error())
	}
	return &jsonReader{data: data}
}

func jsonFail(message string) {
	jsonRefuse("unreadable", message)
}

// jsonRefuse says on stderr, after the judge's marker, why the harness prints no value (kind:
// the judge's word for the case), and ends the run with the harness's own exit status.
func jsonRefuse(kind, words string) {
	os.Stderr.WriteString("@judge-harness " + kind + " " + words + "\n")
	os.Exit(JUDGE_HARNESS_EXIT)
}

func (r *jsonReader) peek() byte {
	for r.at < len(r.data) && (r.data[r.at] == ' ' || r.data[r.at] == '\n' || r.data[r.at] == '\r' || r.data[r.at] == '\t') {
		r.at++
	}
	if r.at == len(r.data) {
		jsonFail("the input ends early")
	}
	return r.data[r.at]
}

func (r *jsonReader) expect(b byte) {
	if r.peek() != b {
		jsonFail("expected `" + string(b) + "` at byte " + strconv.Itoa(r.at))
	}
	r.at++
}

// token is the text of a number, a true or false, or a null.
func (r *jsonReader) token() string {
	r.peek()
	start := r.at
	for r.at < len(r.data) {
		c := r.data[r.at]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.') {
			break
		}
		r.at++
	}
	return string(r.data[start:r.at])
}

func jsonInt(r *jsonReader) int {
	t := r.token()
	v, err := strconv.ParseInt(t, 10, 32)
	if err != nil {
		jsonFail("`" + t + "` is not an int")
	}
	return int(v)
}

func jsonInt64(r *jsonReader) int64 {
	t := r.token()
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		jsonFail("`" + t + "` is not a long")
	}
	return v
}

func jsonFloat64(r *jsonReader) float64 {
	t := r.token()
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		jsonFail("`" + t + "` is not a double")
	}
	return v
}

func jsonBool(r *jsonReader) bool {
	t := r.token()
	if t != "true" && t != "false" {
		jsonFail("`" + t + "` is not a bool")
	}
	return t == "true"
}

func jsonByte(r *jsonReader) byte {
	s := jsonString(r)
	if len(s) != 1 {
		jsonFail(strconv.Quote(s) + " is not one character")
	}
	return s[0]
}

func jsonString(r *jsonReader) string {
	r.expect('"')
	out := []byte{}
	for {
		if r.at >= len(r.data) {
			jsonFail("a string does not end")
		}
		c := r.data[r.at]
		r.at++
		if c == '"' {
			return string(out)
		}
		if c != '\\' || r.at >= len(r.data) {
			out = append(out, c)
			continue
		}
		e := r.data[r.at]
		r.at++
		switch e {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			out = append(out, string(r.unicode())...)
		default:
			out = append(out, e)
		}
	}
}

// unicode is the character of \uXXXX, and of the low half that follows a high surrogate.
func (r *jsonReader) unicode() rune {
	high := r.hex4()
	if high >= 0xD800 && high < 0xDC00 && r.at+1 < len(r.data) && r.data[r.at] == '\\' && r.data[r.at+1] == 'u' {
		r.at += 2
		low := r.hex4()
		return 0x10000 + (high-0xD800)<<10 + (low-0xDC00)&0x3FF
	}
	return high
}

func (r *jsonReader) hex4() rune {
	if r.at+4 > len(r.data) {
		jsonFail("a short \\u escape")
	}
	v, err := strconv.ParseUint(string(r.data[r.at:r.at+4]), 16, 32)
	if err != nil {
		jsonFail("a bad \\u escape")
	}
	r.at += 4
	return rune(v)
}

// jsonArrayOf reads `[a, b, ...]`, each element by element.
func jsonArrayOf[T any](element func(*jsonReader) T) func(*jsonReader) []T {
	return func(r *jsonReader) []T {
		r.expect('[')
		items := []T{}
		if r.peek() == ']' {
			r.at++
			return items
		}
		for {
			items = append(items, element(r))
			if r.peek() == ',' {
				r.at++
				continue
			}
			r.expect(']')
			return items
		}
	}
}

func jsonList(r *jsonReader) *ListNode {
	values := jsonArrayOf(jsonInt)(r)
	var head *ListNode
	for i := len(values) - 1; i >= 0; i-- {
		head = &ListNode{Val: values[i], Next: head}
	}
	return head
}

// jsonTree reads a tree level by level: each node present takes the next two values as its
// children, null for none.
func jsonTree(r *jsonReader) *TreeNode {
	values := jsonArrayOf(func(r *jsonReader) *TreeNode {
		t := r.token()
		if t == "null" {
			return nil
		}
		v, err := strconv.ParseInt(t, 10, 32)
		if err != nil {
			jsonFail("`" + t + "` is not an int")
		}
		return &TreeNode{Val: int(v)}
	})(r)
	if len(values) == 0 {
		return nil
	}
	parents, next := []*TreeNode{values[0]}, 1
	for i := 0; i < len(parents) && next < len(values); i++ {
		for _, child := range []**TreeNode{&parents[i].Left, &parents[i].Right} {
			if next < len(values) {
				*child = values[next]
				if values[next] != nil {
					parents = append(parents, values[next])
				}
				next++
			}
		}
	}
	return values[0]
}

func jsonWriteInt(w *bufio.Writer, v int) {
	w.WriteString(strconv.Itoa(v))
}

func jsonWriteInt64(w *bufio.Writer, v int64) {
	w.WriteString(strconv.FormatInt(v, 10))
}

// jsonWriteFloat64 writes the shortest text that reads back as the same double.
// NaN and the infinities have no JSON: the judge's case, not the solution's.
func jsonWriteFloat64(w *bufio.Writer, v float64) {
	if v != v {
		jsonRefuse("not-json", "NaN")
	} else if v > 1.7976931348623157e308 {
		jsonRefuse("not-json", "Infinity")
	} else if v < -1.7976931348623157e308 {
		jsonRefuse("not-json", "-Infinity")
	}
	w.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
}

func jsonWriteBool(w *bufio.Writer, v bool) {
	w.WriteString(strconv.FormatBool(v))
}

func jsonWriteByte(w *bufio.Writer, v byte) {
	jsonWriteString(w, string([]byte{v}))
}

func jsonWriteString(w *bufio.Writer, v string) {
	w.WriteByte('"')
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"' || c == '\\':
			w.WriteByte('\\')
			w.WriteByte(c)
		case c == '\n':
			w.WriteString("\\n")
		case c == '\t':
			w.WriteString("\\t")
		case c == '\r':
			w.WriteString("\\r")
		case c < 0x20:
			w.WriteString("\\u00")
			w.WriteByte("0123456789abcdef"[c>>4])
			w.WriteByte("0123456789abcdef"[c&15])
		default:
			w.WriteByte(c)
		}
	}
	w.WriteByte('"')
}

func jsonWriteArrayOf[T any](element func(*bufio.Writer, T)) func(*bufio.Writer, []T) {
	return func(w *bufio.Writer, items []T) {
		w.WriteByte('[')
		for i, item := range items {
			if i > 0 {
				w.WriteByte(',')
			}
			element(w, item)
		}
		w.WriteByte(']')
	}
}

func jsonWriteList(w *bufio.Writer, head *ListNode) {
	values := []int{}
	for ; head != nil; head = head.Next {
		values = append(values, head.Val)
	}
	jsonWriteArrayOf(jsonWriteInt)(w, values)
}

// jsonWriteTree writes a tree level by level, null for a missing child, the trailing nulls
// dropped.
func jsonWriteTree(w *bufio.Writer, root *TreeNode) {
	level := []*TreeNode{root}
	for i := 0; i < len(level); i++ {
		if level[i] != nil {
			level = append(level, level[i].Left, level[i].Right)
		}
	}
	for len(level) > 0 && level[len(level)-1] == nil {
		level = level[:len(level)-1]
	}
	w.WriteByte('[')
	for i, node := range level {
		if i > 0 {
			w.WriteByte(',')
		}
		if node == nil {
			w.WriteString("null")
		} else {
			w.WriteString(strconv.Itoa(node.Val))
		}
	}
	w.WriteByte(']')
}
