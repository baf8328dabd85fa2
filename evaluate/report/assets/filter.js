(function () {
  var text = document.getElementById("sample-filter");
  var group = document.getElementById("sample-group");
  var stage = document.getElementById("sample-stage");
  var count = document.getElementById("sample-count");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#sample-index tbody tr"));
  function apply() {
    var q = text.value.trim().toLowerCase();
    var g = group.value, s = stage.value, shown = 0;
    rows.forEach(function (tr) {
      var ok = !q || tr.textContent.toLowerCase().indexOf(q) >= 0;
      if (ok && s) {
        var stages = " " + tr.getAttribute("data-stages") + " ";
        ok = g ? stages.indexOf(" " + g + ":" + s + " ") >= 0 : new RegExp(":" + s + " ").test(stages);
      } else if (ok && g) {
        ok = (" " + tr.getAttribute("data-stages")).indexOf(" " + g + ":") >= 0;
      }
      tr.style.display = ok ? "" : "none";
      if (ok) shown++;
    });
    count.textContent = shown + " of " + rows.length + " samples";
  }
  [text, group, stage].forEach(function (el) { el.addEventListener("input", apply); });
  apply();
})();
