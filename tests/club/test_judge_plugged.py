"""The judge's rulings (``club.judge``) plugged into its machinery (``club.judge_store``) as
they are: each ruling applied in the transaction of the message that caused it (its game kept,
its mail queued, its outcome logged), the players' copies coming from the outbox. A game
played so under a judge made by ``create_judge`` is the game its store keeps."""

import email

from support.tables import JudgedTable

from uptown_cli.club.judge import rule_on_message
from uptown_cli.club.judge_mailbox import message_key
from uptown_cli.club.judge_run import applied
from uptown_cli.club.judge_store import Store, create_judge


class StoredTable(JudgedTable):
    """A table whose judge keeps its games in a store and mails through its outbox."""

    def __init__(self, tmp_path):
        create_judge(str(tmp_path / "judge"), "judge@club.example")
        self.store = Store.open(str(tmp_path / "judge"))
        super().__init__(tmp_path)
        self.judge = self.store.judge()

    def apply(self, ruling):  # the club gives the judge its game (uptown judge add)
        outcome = self.store.tick("add", lambda txn: applied(ruling, txn)).text
        self.deliver()
        return outcome

    def post(self, name, message=None):
        self.sent += 1
        message = self.folders[name] / f"to-judge-{self.sent}.eml"
        self.uptown(name, "send", "club.yaml", "--as", name, "-o", message)
        data = message.read_bytes()
        key, message_id = message_key(data)
        work = lambda txn: applied(rule_on_message(self.judge, data, self.now, txn.game), txn)  # noqa: E731
        outcome = self.store.handle(key, message_id, self.now, work)
        assert self.store.handle(key, message_id, self.now, work) is None  # once
        self.deliver()
        return outcome.text

    def deliver(self):
        """The outbox sent to the players' ``receive``."""
        def send_one(queued):
            message = email.message_from_bytes(queued.data)
            for address in queued.recipients:
                name = self.address.get(address)
                if name is not None and "refused" not in str(message["Subject"]):
                    self.sent += 1
                    path = self.folders[name] / f"from-judge-{self.sent}.eml"
                    path.write_bytes(queued.data)
                    result = self.receive(name, path)
                    assert result.exit_code == 0, (name, result.output)
            return {}
        self.store.send_pending(send_one)


def test_a_game_under_a_judge_is_the_game_its_store_keeps(tmp_path):
    table = StoredTable(tmp_path)
    table.start("--hidden", "--clock", "move 24h", "--late", "forfeit")
    table.wait(2)
    table.play("Ana")
    assert "stamped move 1 (Ana's red)" in table.post("Ana")
    [game] = table.store.games()
    assert game.path == "club.yaml"
    for name in ("Ana", "Bo", "Cy"):
        assert table.game(name).read_text() == game.text
    assert (tmp_path / "judge" / "games" / "club.yaml").read_text() == game.text
    assert table.store.outbox(("queued", "sending", "failed")) == []
    rulings = table.store.db.execute("SELECT detail FROM events WHERE event = 'ruling'").fetchall()
    assert len(rulings) == 5  # the game given, three joins, a move
    table.store.close()
