const axios = require('axios');

const options = {
  method: 'GET',
  url: 'https://stock-quotes.p.rapidapi.com/quote/AAPL',
  params: {interval: '1day'},
  headers: {
    'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
    'x-rapidapi-host': 'stock-quotes.p.rapidapi.com'
  }
};

try {
	const response = await axios.request(options);
	console.log(response.data);
} catch (error) {
	console.error(error);
}
