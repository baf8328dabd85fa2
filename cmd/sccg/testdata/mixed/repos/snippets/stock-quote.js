const axios = require('axios');

const options = {
  method: 'GET',
  url: 'https://stock-feed.p.rapidapi.com/quote/MSFT',
  headers: {
    'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
    'x-rapidapi-host': 'stock-feed.p.rapidapi.com'
  }
};

try {
	const response = await axios.request(options);
	console.log(response.data);
} catch (error) {
	console.error(error);
}
