const unirest = require("unirest");

const req = unirest("GET", "https://covid-tracker.p.rapidapi.com/countries");

req.query({
	"region": "europe"
});

req.headers({
	"x-rapidapi-key": "SIGN-UP-FOR-KEY",
	"x-rapidapi-host": "covid-tracker.p.rapidapi.com",
	"useQueryString": true
});


req.end(function (res) {
	if (res.error) throw new Error(res.error);

	console.log(res.body);
});
