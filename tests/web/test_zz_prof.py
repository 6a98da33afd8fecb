import cProfile, pstats, time
from tests.web.test_api_rounds import _fund, _open

def test_prof(app, client, login):
    login("pitboss")
    _fund(login, 2, 1_000_000)
    _open(app, 12)
    for _ in range(5):
        login.post("/api/tables/12/bets", json={"spot": "red", "amount": 1_000, "player_id": 2})
    pr = cProfile.Profile()
    t = time.process_time()
    pr.enable()
    for i in range(100):
        r = login.post("/api/tables/12/bets", json={"spot": ["red","black","even","odd"][i%4], "amount": 1_000, "player_id": 2})
        assert r.status_code == 201, r.get_json()
    pr.disable()
    print("\nCPU ms per bet", (time.process_time() - t) * 10)
    st = pstats.Stats(pr); st.sort_stats("tottime").print_stats(45)
