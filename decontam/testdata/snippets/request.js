const request = require('request');

const options = {
  method: 'GET',
  url: 'https://recipe-finder.p.rapidapi.com/search',
  qs: {q: 'lentils', diet: 'vegan'},
  headers: {
    'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
    'x-rapidapi-host': 'recipe-finder.p.rapidapi.com',
    useQueryString: true
  }
};

request(options, function (error, response, body) {
	if (error) throw new Error(error);

	console.log(body);
});
