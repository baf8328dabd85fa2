const unirest = require('unirest');

const req = unirest('GET', 'https://covid-193.p.rapidapi.com/statistics');

req.query({
	country: 'usa'
});

req.headers({
	'x-rapidapi-key': 'SIGN-UP-FOR-KEY',
	'x-rapidapi-host': 'covid-193.p.rapidapi.com'
});

req.end(function (res) {
	if (res.error) throw new Error(res.error);

	console.log(res.body);
});
