// Each formula of a LaTeX statement is written out as text first; KaTeX (served by the judge
// itself, under /static/katex/) draws it over that text from its TeX source.
document.addEventListener("DOMContentLoaded", () => {
  if (typeof katex === "undefined") return;
  for (const el of document.querySelectorAll("[data-tex]")) {
    try {
      katex.render(el.dataset.tex, el, {
        displayMode: el.parentElement.tagName === "DIV",
        throwOnError: false,
      });
    } catch (e) {
      // The readable text stays.
    }
  }
});
