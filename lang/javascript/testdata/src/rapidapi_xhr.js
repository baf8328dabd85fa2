const data = null;

const xhr = new XMLHttpRequest();
xhr.withCredentials = true;

xhr.addEventListener('readystatechange', function () {
	if (this.readyState === this.DONE) {
		console.log(this.responseText);
	}
});

xhr.open('GET', 'https://api-football-v1.p.rapidapi.com/v3/fixtures?live=all');
xhr.setRequestHeader('x-rapidapi-key', 'SIGN-UP-FOR-KEY');
xhr.setRequestHeader('x-rapidapi-host', 'api-football-v1.p.rapidapi.com');

xhr.send(data);
