export function renderTicker(titles) {
  document.getElementById('ticker').textContent = titles.join('  •  ');
}
