// Currency converter widget for the landing page.
const API_HOST = 'currency-exchange.p.rapidapi.com';
const API_KEY = window.RAPIDAPI_KEY || '';

/**
 * Converts an amount between two currencies with the exchange API.
 * @param {string} from ISO code of the source currency
 * @param {string} to ISO code of the target currency
 */
function convert(from, to, amount) {
  var xhr = new XMLHttpRequest();
  xhr.open('GET', 'https://' + API_HOST + '/exchange?from=' + from + '&to=' + to + '&q=' + amount);
  xhr.setRequestHeader('X-RapidAPI-Host', API_HOST);
  xhr.setRequestHeader('X-RapidAPI-Key', API_KEY);
  xhr.onreadystatechange = function () {
    if (xhr.readyState === 4 && xhr.status === 200) {
      document.getElementById('result').textContent = xhr.responseText;
    }
  };
  xhr.send();
}

function loadRates(base) {
  // fetch the latest rate table
  return fetch(`https://${API_HOST}/listquotes?base=${base}`, {
    headers: { 'X-RapidAPI-Host': API_HOST, 'X-RapidAPI-Key': API_KEY },
  })
    .then(function (res) { return res.json(); })
    .catch(function (err) { console.error('rates failed', err); });
}

document.getElementById('convert').addEventListener('click', function () {
  var from = document.getElementById('from').value;
  convert(from, 'USD', 1);
});

window.addEventListener('load', function () {
  fetch('https://' + API_HOST + '/listquotes').then(function (r) { return r.json(); });
});
