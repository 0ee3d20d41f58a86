type ListNode struct {
	Val  int
	Next *ListNode
}
